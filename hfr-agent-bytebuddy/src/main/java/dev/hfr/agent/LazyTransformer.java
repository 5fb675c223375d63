package dev.hfr.agent;

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
 * The agent's transformer: a set lookup of the class name, and nothing more unless the class is one the agent
 * instruments. The weaver is loaded, and the recording started, when the first such class is woven: at start-up
 * for the JDK's clients ({@link AgentInstaller}), or when a library's class loads while the transformer stays
 * registered to watch for them.
 *
 * <p>It also lets a named module that gets advice (the JDK's {@code java.base}, {@code java.net.http}, or a
 * modular library) read the bridge's module, which the inlined calls need.
 */
final class LazyTransformer implements ClassFileTransformer {

  private final Set<String> internalNames;
  private final Supplier<HookTransformer> factory;
  private final Instrumentation inst;
  private final Module bridgeModule;
  private final ThreadLocal<Boolean> building = new ThreadLocal<>();
  private volatile HookTransformer delegate;
  private volatile boolean failed;
  /** How many classes the JVM has handed this transformer, instrumented or not (for the debug line). */
  private final AtomicInteger handed = new AtomicInteger();
  /** The classes this transformer wove as they were defined (not retransformed), by internal name. */
  private final Set<String> wovenWhenDefined = new HashSet<>();

  /**
   * @param internalNames the instrumented classes, as {@code a/b/C$D}
   * @param factory starts the recording and builds the hook transformer (called once, on first use)
   */
  LazyTransformer(Set<String> internalNames, Supplier<HookTransformer> factory, Instrumentation inst, Module bridgeModule) {
    this.internalNames = internalNames;
    this.factory = factory;
    this.inst = inst;
    this.bridgeModule = bridgeModule;
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    handed.incrementAndGet();
    if (className == null || !internalNames.contains(className) || failed) {
      return null;
    }
    try {
      HookTransformer transformer = delegate();
      if (transformer == null) {
        return null;
      }
      if (module != null && module.isNamed() && !module.canRead(bridgeModule)) {
        inst.redefineModule(module, Set.of(bridgeModule), Map.of(), Map.of(), Set.of(), Map.of());
      }
      long began = System.nanoTime();
      byte[] transformed = transformer.transform(className, classfileBuffer);
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
   * Sets up now what the first weaving would: the recording, ASM, the hooks of {@code clients} and the weaver's classes,
   * and the JDK classes the instrumented ones need first ({@link HookTransformer#prepare}). The agent calls it before it
   * registers this transformer, so that none of those classes is handed to it.
   */
  void prepare(List<Integer> clients) {
    HookTransformer transformer = delegate();
    if (transformer == null) {
      return;
    }
    try {
      transformer.prepare(clients);
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

  private HookTransformer delegate() {
    HookTransformer d = delegate;
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
