package dev.hfr.agent;

import dev.hfr.agent.instrumentation.MethodAdvice;
import dev.hfr.agent.instrumentation.TypeInstrumentation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * Inlines the advice into one instrumented class, with Byte Buddy's {@link Advice} on a decorated type.
 *
 * <p>Deliberately not an {@code AgentBuilder}: {@link LazyTransformer} has already matched the class by
 * name, and the builder's own set-up (its type matching, listeners and the {@code ClassFileTransformer}
 * class it generates at run time) cost about as much again as the advice itself. What is kept is what
 * {@code AgentBuilder.disableClassFormatChanges()} would do: the class is decorated (no member added or
 * removed, so it may be retransformed), no type initializer is added and the method graph is that of the
 * declared methods only, which is all the advice applies to.
 */
final class AdviceTransformer {

  private final Map<String, TypeInstrumentation> byInternalName = new HashMap<>();
  private final ClassFileLocator adviceClasses;
  private final ByteBuddy byteBuddy = new ByteBuddy()
      .with(TypeValidation.DISABLED)
      .with(Implementation.Context.Disabled.Factory.INSTANCE)
      .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);

  /**
   * @param instrumentations the enabled instrumentations
   * @param agentLoader where the advice classes' bytes are read from
   */
  AdviceTransformer(List<TypeInstrumentation> instrumentations, ClassLoader agentLoader) {
    for (TypeInstrumentation instrumentation : instrumentations) {
      for (String name : instrumentation.classNames()) {
        byInternalName.put(name.replace('.', '/'), instrumentation);
      }
    }
    this.adviceClasses = ClassFileLocator.ForClassLoader.of(agentLoader);
  }

  /** The class with its advice inlined, or {@code null} when {@code internalName} is not instrumented. */
  byte[] transform(ClassLoader loader, String internalName, byte[] classFile) {
    TypeInstrumentation instrumentation = byInternalName.get(internalName);
    if (instrumentation == null) {
      return null;
    }
    String name = internalName.replace('/', '.');
    ClassFileLocator locator = new ClassFileLocator.Compound(
        ClassFileLocator.Simple.of(name, classFile),
        adviceClasses,
        loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader() : ClassFileLocator.ForClassLoader.of(loader));
    TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(), locator, TypePool.Default.ReaderMode.FAST);
    TypeDescription type = pool.describe(name).resolve();
    AsmVisitorWrapper.ForDeclaredMethods methods = new AsmVisitorWrapper.ForDeclaredMethods();
    for (MethodAdvice advice : instrumentation.advice()) {
      methods = methods.invokable(advice.methods(), Advice.to(pool.describe(advice.adviceClass()).resolve(), locator)
          .withExceptionHandler(Advice.ExceptionHandler.Default.SUPPRESSING));
    }
    return byteBuddy.decorate(type, locator).visit(methods).make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
  }
}
