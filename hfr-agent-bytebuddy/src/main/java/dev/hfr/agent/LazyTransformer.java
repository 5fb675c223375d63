package dev.hfr.agent;

import dev.hfr.agent.internal.instrumentation.Weaving;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The agent's transformer: a map lookup of the class name, and nothing more unless the class is one the agent
 * instruments, which it hands to Byte Buddy ({@link Weaving}). A plain {@code ClassFileTransformer} rather than Byte
 * Buddy's {@code AgentBuilder}, whose own transformer costs every class the JVM loads more than a lookup. Nothing of
 * Byte Buddy is loaded, and no advice read, until the first instrumented class is being loaded: then the weaver is
 * loaded and the recording started, on that thread, before the class is defined. A JVM that never loads an HTTP client
 * never pays for either.
 *
 * <p>Once the classes it was told to wait for ({@code removeAfter}: the JDK's, when no library is watched) are all
 * woven, it removes itself, and the JVM stops handing it the classes it loads.
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
  /** The classes after whose weaving this transformer removes itself, by internal name; empty: it stays. */
  private final Set<String> removeAfter;

  /**
   * @param clientByInternalName the bridge slot of each instrumented class, by internal name ({@code a/b/C$D})
   * @param factory starts the recording and loads the weaver (called once, on first use)
   * @param removeAfter the internal names after whose weaving the transformer removes itself (empty: it stays)
   */
  LazyTransformer(Map<String, Integer> clientByInternalName, Supplier<Weaving> factory, Instrumentation inst, Module bridgeModule,
      Set<String> removeAfter) {
    this.clientByInternalName = clientByInternalName;
    this.removeAfter = new HashSet<>(removeAfter);
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
      return transformed;
    } catch (Throwable t) {
      AgentLog.warn("could not instrument " + className.replace('/', '.') + "; its client is not recorded: " + t);
      return null;
    } finally {
      done(className);
    }
  }

  /** Removes this transformer once the last class it waited for has been handled (woven, or left as it was). */
  private void done(String className) {
    boolean last;
    synchronized (removeAfter) {
      last = removeAfter.remove(className) && removeAfter.isEmpty();
    }
    if (last) {
      // the JVM stops calling a transformer for every class it loads; a snapshot of the list is being run, so this is safe
      inst.removeTransformer(this);
      AgentLog.debug("removed the transformer: every JDK client is woven (it was handed " + handed() + " classes)");
    }
  }

  /** How many classes the JVM has handed this transformer so far, each a call with a copy of its class file. */
  int handed() {
    return handed.get();
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
