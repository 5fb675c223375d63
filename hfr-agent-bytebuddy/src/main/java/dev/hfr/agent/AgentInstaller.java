package dev.hfr.agent;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Wires the agent once the bridge is in the bootstrap class loader: registers the transformer of the
 * instrumented clients and retransforms those already loaded. The recorder (meters, events file, stderr
 * summary) and the weaver (ASM) start when the first instrumented class loads; the Prometheus endpoint,
 * when asked for, starts at once.
 *
 * <p>This is the start-up path of every JVM the agent is in, so it is kept cheap on purpose: it loads
 * neither ASM nor Micrometer (both are reached only through {@link FirstUse}), no instrumentation
 * class (the class names are constants), and it creates no lambda, whose first use in a JVM costs tens of milliseconds of {@code java.lang.invoke} set-up.
 */
final class AgentInstaller {

  private AgentInstaller() {}

  static void install(AgentOptions options, Instrumentation inst, String how, long beganNanos) {
    // the instrumented classes by name only: no instrumentation class is loaded before one of them appears
    Map<String, Integer> clientByInternalName = new HashMap<>();
    Set<String> binaryNames = new HashSet<>();
    StringBuilder clients = new StringBuilder();
    for (int client = 0; client < HfrBridge.CLIENTS; client++) {
      if (options.instruments(client)) {
        for (String name : HttpClientInstrumentations.classNames(client)) {
          binaryNames.add(name);
          clientByInternalName.put(name.replace('.', '/'), client);
        }
        clients.append(clients.length() == 0 ? "" : ", ").append(HfrBridge.clientName(client));
      }
    }
    FirstUse firstUse = new FirstUse(options, Map.copyOf(clientByInternalName));
    if (options.prometheusPort() >= 0) {
      firstUse.startRecording(); // the endpoint should answer from the start
    }
    instrument(clientByInternalName.keySet(), binaryNames, inst, firstUse);
    AgentLog.info("started on " + how + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beganNanos) + " ms, mode "
        + (options.enforce() ? "enforce" : "shadow") + ", clients " + clients
        + (options.events() != null ? ", events " + options.events().toAbsolutePath() : ""));
  }

  /**
   * Registers the transformer and retransforms the instrumented classes that are loaded already (all
   * of them when attaching; {@code HttpURLConnection} perhaps at start-up).
   */
  private static void instrument(Set<String> internalNames, Set<String> binaryNames, Instrumentation inst, FirstUse firstUse) {
    inst.addTransformer(new LazyTransformer(Set.copyOf(internalNames), firstUse, inst, HfrBridge.class.getModule()), true);
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (binaryNames.contains(loaded.getName()) && inst.isModifiableClass(loaded)) {
        try {
          inst.retransformClasses(loaded);
        } catch (Throwable t) {
          AgentLog.warn("could not instrument the loaded " + loaded.getName() + "; its client is not recorded: " + t);
        }
      }
    }
  }

  /**
   * What happens when the first instrumented class loads (or at once, for the Prometheus endpoint): the
   * recording starts and the hook transformer is built, each at most once. Both run on the thread that
   * loads the class, before the class is defined, so the very first request is recorded. (The recording
   * loads Micrometer, the runtime's classifier and JDK classes, never an instrumented class.)
   */
  private static final class FirstUse implements Supplier<HookTransformer> {
    private final AgentOptions options;
    private final Map<String, Integer> clientByInternalName;
    private boolean recording;

    FirstUse(AgentOptions options, Map<String, Integer> clientByInternalName) {
      this.options = options;
      this.clientByInternalName = clientByInternalName;
    }

    synchronized void startRecording() {
      if (!recording) {
        recording = true;
        long began = System.nanoTime();
        Recording.start(options);
        AgentLog.debug("started recording in " + AgentLog.millisSince(began));
      }
    }

    @Override
    public HookTransformer get() {
      try {
        startRecording();
      } catch (Throwable t) {
        AgentLog.warn("could not start recording; no request is recorded: " + t);
      }
      AsmClasses.defineInBootstrap(); // before anything loads an ASM class through the system class loader
      long began = System.nanoTime();
      HookTransformer transformer = new HookTransformer(clientByInternalName, HfrBridge.CLIENTS);
      AgentLog.debug("set up the hooks in " + AgentLog.millisSince(began));
      return transformer;
    }
  }
}
