package dev.hfr.agent;

import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import dev.hfr.agent.internal.instrumentation.Weaving;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The agent's transformer: a map lookup of the class name, and nothing more unless the class is one the agent
 * instruments, which it hands to Byte Buddy ({@link Weaving}). A plain {@code ClassFileTransformer} rather than Byte
 * Buddy's {@code AgentBuilder}, whose own transformer costs every class the JVM loads more than a lookup. The weaver is
 * loaded, and the recording started, when the first such class is woven: at start-up for the JDK's clients
 * ({@link AgentInstaller}), or when a library's class loads while the transformer stays registered to watch for them.
 *
 * <p>It also lets a named module that gets advice (the JDK's {@code java.base}, {@code java.net.http}, or a
 * modular library) read the bridge's module, which the inlined calls need.
 */
final class LazyTransformer implements ClassFileTransformer {

  private final Map<String, Integer> clientByInternalName;
  private final Supplier<Weaving> factory;
  private final Instrumentation inst;
  private final Module bridgeModule;
  private final ThreadLocal<Boolean> building = new ThreadLocal<>();
  private volatile Weaving delegate;
  private volatile boolean failed;
  /** How many classes the JVM has handed this transformer, instrumented or not (for the debug line). */
  private final AtomicInteger handed = new AtomicInteger();
  /** The classes this transformer wove as they were defined (not retransformed), by internal name. */
  private final Set<String> wovenWhenDefined = new HashSet<>();

  /**
   * @param clientByInternalName the bridge slot of each instrumented class, by internal name ({@code a/b/C$D})
   * @param factory starts the recording and loads the weaver (called once, on first use)
   */
  LazyTransformer(Map<String, Integer> clientByInternalName, Supplier<Weaving> factory, Instrumentation inst, Module bridgeModule) {
    this.clientByInternalName = clientByInternalName;
    this.factory = factory;
    this.inst = inst;
    this.bridgeModule = bridgeModule;
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    handed.incrementAndGet();
    Integer client = className == null ? null : clientByInternalName.get(className);
    if (client == null || failed) {
      return null;
    }
    try {
      Weaving transformer = delegate();
      if (transformer == null) {
        return null;
      }
      if (module != null && module.isNamed() && !module.canRead(bridgeModule)) {
        inst.redefineModule(module, Set.of(bridgeModule), Map.of(), Map.of(), Set.of(), Map.of());
      }
      long began = System.nanoTime();
      byte[] transformed = transformer.weave(loader, className, client, classfileBuffer);
      if (AgentLog.DEBUG) {
        AgentLog.debug("instrumented " + className.replace('/', '.') + (classBeingRedefined != null ? " (retransformed)" : "")
            + " in " + AgentLog.millisSince(began));
      }
      if (transformed != null && classBeingRedefined == null) {
        synchronized (wovenWhenDefined) {
          wovenWhenDefined.add(className);
        }
      }
      return transformed;
    } catch (Throwable t) {
      AgentLog.warn("could not instrument " + className.replace('/', '.') + "; its client is not recorded: " + t);
      return null;
    }
  }

  /**
   * Sets up now what the first weaving would: the recording, the weaver and the advice of {@code clients}
   * ({@link Weaving#prepare}), and the JDK classes the instrumented ones are defined after. The agent calls it before it
   * registers this transformer, so that none of those classes is handed to it.
   */
  void prepare(List<Integer> clients) {
    Weaving transformer = delegate();
    if (transformer == null) {
      return;
    }
    try {
      transformer.prepare(clients);
      for (int client : clients) {
        for (String name : HttpClientInstrumentations.loadedFirst(client)) {
          try {
            Class.forName(name, false, ClassLoader.getPlatformClassLoader());
          } catch (ClassNotFoundException | LinkageError notInThisRuntime) {
            AgentLog.debug(name + " is not in this runtime: " + notInThisRuntime);
          }
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // the weaving that follows meets the same problem and reports it for its class, as it did before
      AgentLog.debug("could not set up the weaving beforehand: " + e);
    }
  }

  /** How many classes the JVM has handed this transformer so far, each a call with a copy of its class file. */
  int handed() {
    return handed.get();
  }

  /** Whether this transformer wove the class as it was defined, so that it needs no retransformation. */
  boolean wovenWhenDefined(String internalName) {
    synchronized (wovenWhenDefined) {
      return wovenWhenDefined.contains(internalName);
    }
  }

  /** The weaver, loaded on first use; {@code null} when it could not be. */
  Weaving delegate() {
    Weaving d = delegate;
    if (d != null) {
      return d;
    }
    if (Boolean.TRUE.equals(building.get())) {
      return null; // a class loaded while the recording itself is being set up: not ours to touch
    }
    synchronized (this) {
      if (delegate == null && !failed) {
        building.set(Boolean.TRUE);
        try {
          delegate = factory.get();
        } catch (Throwable t) {
          failed = true;
          AgentLog.warn("could not set up instrumentation; no client is recorded: " + t);
        } finally {
          building.remove();
        }
      }
      return delegate;
    }
  }
}
