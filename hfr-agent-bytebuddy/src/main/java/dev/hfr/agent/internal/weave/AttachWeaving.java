package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.none;

import dev.hfr.agent.AgentLog;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.Nexus;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Attaching to a running JVM, whose HTTP clients may be loaded already: Byte Buddy's {@code AgentBuilder} retransforms
 * those classes and stays registered for the ones that load later, with the same advice as at start-up. Its cheapest
 * settings: only the classes named exactly ({@code namedOneOf}), described from their class files alone
 * ({@code DescriptionStrategy.Default.POOL_ONLY}), decorated rather than rebuilt ({@code TypeStrategy.Default.DECORATE}:
 * no member added, as retransformation requires), no type initializer added, type validation off.
 */
final class AttachWeaving {

  private AttachWeaving() {}

  static void install(ByteBuddy byteBuddy, AdviceWeaving weaving, Instrumentation inst, List<Integer> clients, Module bridgeModule) {
    // Byte Buddy's switch (relocated with it, so it is the agent's alone) that keeps AgentBuilder.Default from setting up
    // its type-initializer injection (Nexus), which this agent never uses and which reaches for sun.misc.Unsafe: on
    // JDK 24 and later the JVM would print four warnings on the application's stderr (JEP 498)
    if (System.getProperty(Nexus.PROPERTY) == null) {
      System.setProperty(Nexus.PROPERTY, "true");
    }
    AgentBuilder.Ignored builder = new AgentBuilder.Default(byteBuddy)
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
        .with(new Failures())
        // the default ignores the bootstrap loader's classes; the types below are named one by one instead
        .ignore(none());
    AgentBuilder agent = builder;
    for (int client : clients) {
      List<String> names = HttpClientInstrumentations.classNames(client);
      AgentBuilder.Transformer.ForAdvice advice = new AgentBuilder.Transformer.ForAdvice()
          .include(AttachWeaving.class.getClassLoader());
      for (MethodAdvice a : weaving.advice(client)) {
        advice = advice.advice(a.methods(), a.adviceClass());
      }
      agent = agent.type(namedOneOf(names.toArray(new String[0]))).transform(advice).transform(new ReadsBridge(inst, bridgeModule));
    }
    agent.installOn(inst);
  }

  /** Lets a named module that gets advice (the JDK's, or a modular library) read the bridge's module. */
  private static final class ReadsBridge implements AgentBuilder.Transformer {
    private final Instrumentation inst;
    private final Module bridgeModule;

    ReadsBridge(Instrumentation inst, Module bridgeModule) {
      this.inst = inst;
      this.bridgeModule = bridgeModule;
    }

    @Override
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
        JavaModule module, java.security.ProtectionDomain domain) {
      if (module != null && module.isNamed()) {
        Module m = (Module) module.unwrap();
        if (!m.canRead(bridgeModule)) {
          inst.redefineModule(m, java.util.Set.of(bridgeModule), java.util.Map.of(), java.util.Map.of(), java.util.Set.of(),
              java.util.Map.of());
        }
      }
      return builder;
    }
  }

  /** Reports a class that could not be woven; its client is then not recorded. */
  private static final class Failures extends AgentBuilder.Listener.Adapter {
    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable throwable) {
      AgentLog.warn("could not instrument " + typeName + "; its client is not recorded: " + throwable);
    }

    @Override
    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
        DynamicType dynamicType) {
      AgentLog.debug("instrumented " + type.getName() + (loaded ? " (retransformed)" : "") + " through AgentBuilder");
    }
  }
}
