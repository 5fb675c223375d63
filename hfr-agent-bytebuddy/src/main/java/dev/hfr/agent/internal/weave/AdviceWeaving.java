package dev.hfr.agent.internal.weave;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.instrumentation.Weaving;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
 * Inlines the advice into one instrumented class with Byte Buddy: {@link Advice} on a decorated type
 * ({@code ByteBuddy.decorate}), called by the agent's own transformer for the few classes it matched by name.
 *
 * <p>Deliberately no {@code AgentBuilder} here (it is used on attach, {@link AttachWeaving}): the agent's transformer
 * has matched the class already, and the builder's own set-up cost about as much again as the advice (docs/AGENT.md,
 * "Start-up"). What is kept is what the builder's cheapest settings do: the class is decorated (no member added or
 * removed, so a loaded class may be retransformed), type validation is off, no type initializer is added, the method
 * graph is that of the declared methods only (all the advice applies to), and types are described from class files
 * through a type pool that resolves a name only when it is asked for. The advice classes are read as class files
 * through a {@link ClassFileLocator} on this class's loader, never loaded.
 */
public final class AdviceWeaving implements Weaving {

  private final ByteBuddy byteBuddy = new ByteBuddy()
      .with(TypeValidation.DISABLED)
      .with(Implementation.Context.Disabled.Factory.INSTANCE)
      .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);
  /** The advice class files: this loader is the weaver's own, which serves them from the nested jar. */
  private final ClassFileLocator adviceClasses = ClassFileLocator.ForClassLoader.of(AdviceWeaving.class.getClassLoader());
  private final TypePool advicePool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(), adviceClasses,
      TypePool.Default.ReaderMode.FAST, LoadedJdkTypes.INSTANCE);
  private final ConcurrentMap<String, Advice> adviceByClass = new ConcurrentHashMap<>();
  @SuppressWarnings("unchecked")
  private final List<MethodAdvice>[] adviceByClient = new List[HfrBridge.CLIENTS];

  /** Called reflectively by the agent's {@code WeaverLoader}. */
  public AdviceWeaving() {}

  @Override
  public byte[] weave(ClassLoader loader, String internalName, int client, byte[] classFile) {
    String name = internalName.replace('/', '.');
    ClassFileLocator locator = new ClassFileLocator.Compound(
        ClassFileLocator.Simple.of(name, classFile),
        // only when a type the weaving asks about is neither the class nor in java.lang
        new LoggingLocator(loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader() : ClassFileLocator.ForClassLoader.of(loader),
            "the class loader of " + name));
    TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(), locator,
        TypePool.Default.ReaderMode.FAST, LoadedJdkTypes.INSTANCE);
    TypeDescription type = pool.describe(name).resolve();
    AsmVisitorWrapper.ForDeclaredMethods methods = new AsmVisitorWrapper.ForDeclaredMethods();
    boolean any = false;
    for (MethodAdvice advice : advice(client)) {
      if (!type.getDeclaredMethods().filter(advice.methods()).isEmpty()) {
        methods = methods.invokable(advice.methods(), advice(advice.adviceClass()));
        any = true;
      }
    }
    if (!any) {
      return null;
    }
    return byteBuddy.decorate(type, locator).visit(methods).make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
  }

  @Override
  public void installOnAttach(Instrumentation inst, List<Integer> clients, Module bridgeModule) {
    AttachWeaving.install(byteBuddy, this, inst, clients, bridgeModule);
  }

  /** The advice of a client, built once. */
  List<MethodAdvice> advice(int client) {
    synchronized (adviceByClient) {
      if (adviceByClient[client] == null) {
        adviceByClient[client] = instrumentation(client).advice();
      }
      return adviceByClient[client];
    }
  }

  private Advice advice(String adviceClass) {
    Advice advice = adviceByClass.get(adviceClass);
    if (advice == null) {
      advice = Advice.to(advicePool.describe(adviceClass).resolve(), adviceClasses);
      adviceByClass.putIfAbsent(adviceClass, advice);
    }
    return advice;
  }

  private static TypeInstrumentation instrumentation(int client) {
    return switch (client) {
      case HfrBridge.JDK_HTTP_CLIENT -> new JdkHttpClientInstrumentation();
      case HfrBridge.HTTP_URL_CONNECTION -> new HttpUrlConnectionInstrumentation();
      case HfrBridge.OKHTTP -> new OkHttpInstrumentation();
      case HfrBridge.APACHE_HTTPCLIENT5 -> new ApacheHttpClient5Instrumentation();
      default -> throw new IllegalArgumentException("no client in slot " + client);
    };
  }
}
