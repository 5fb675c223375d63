package dev.hfr.agent;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import dev.hfr.agent.internal.instrumentation.LibraryWatch;
import dev.hfr.agent.internal.instrumentation.Weaving;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Wires the agent once the bridge is in the bootstrap class loader. At start-up it registers its
 * {@link LazyTransformer}, which weaves each instrumented class when it is being loaded: the recorder (meters, events
 * file, stderr summary) and the weaver (Byte Buddy, {@link WeaverLoader}) start with the first of them, so a JVM that
 * never loads an HTTP client pays for neither. The transformer removes itself once the JDK's clients are woven, unless
 * the libraries' clients are watched ({@link LibraryWatch}); the Prometheus endpoint, when asked for, starts at once.
 * Attaching to a running JVM hands the weaving to Byte Buddy's {@code AgentBuilder}, which retransforms what is loaded
 * already.
 *
 * <p>This is the start-up path of every JVM the agent is in, so it is kept cheap on purpose: it loads no
 * instrumentation class before weaving (the class names are constants), and it creates no lambda, whose first
 * use in a JVM costs tens of milliseconds of {@code java.lang.invoke} set-up.
 */
final class AgentInstaller {

  private AgentInstaller() {}

  static void install(AgentOptions options, Instrumentation inst, boolean attach, long beganNanos) {
    NestedJar.use(inst);
    // the instrumented classes by name only: no instrumentation class is loaded before one of them is woven
    Map<String, Integer> clientByInternalName = new HashMap<>();
    Set<String> jdkClasses = new HashSet<>();
    List<Integer> libraryClients = new ArrayList<>();
    List<Integer> jdkClientSlots = new ArrayList<>();
    StringBuilder jdkClients = new StringBuilder();
    StringBuilder libraryClientNames = new StringBuilder();
    for (int client = 0; client < HfrBridge.CLIENTS; client++) {
      if (!options.instruments(client)) {
        continue;
      }
      boolean inJdk = HttpClientInstrumentations.inJdk(client);
      for (String name : HttpClientInstrumentations.classNames(client)) {
        if (inJdk) {
          jdkClasses.add(name.replace('.', '/'));
        }
        clientByInternalName.put(name.replace('.', '/'), client);
      }
      (inJdk ? jdkClientSlots : libraryClients).add(client);
      StringBuilder names = inJdk ? jdkClients : libraryClientNames;
      names.append(names.length() == 0 ? "" : ", ").append(HfrBridge.clientName(client));
    }
    FirstUse firstUse = new FirstUse(options);
    if (options.prometheusPort() >= 0) {
      firstUse.startRecording(); // the endpoint should answer from the start
    }
    LibraryWatch watch = LibraryWatch.decide(options.watch(), libraryClients, attach,
        LibraryWatch.classPath(System.getProperty("java.class.path", "")));
    if (!watch.watching()) {
      for (int client : libraryClients) {
        for (String name : HttpClientInstrumentations.classNames(client)) {
          clientByInternalName.remove(name.replace('.', '/'));
        }
      }
    }
    LazyTransformer transformer = new LazyTransformer(Map.copyOf(clientByInternalName), firstUse, inst,
        HfrBridge.class.getModule(), watch.watching() ? Set.of() : jdkClasses);
    if (attach) {
      List<Integer> clients = new ArrayList<>(jdkClientSlots);
      if (watch.watching()) {
        clients.addAll(libraryClients);
      }
      Weaving weaving = transformer.delegate();
      if (weaving != null) {
        weaving.installOnAttach(inst, clients, HfrBridge.class.getModule());
      }
    } else if (!clientByInternalName.isEmpty()) {
      // nothing is loaded or woven now: each class when it loads, or now if it was loaded before the agent started
      inst.addTransformer(transformer, true);
      retransformLoaded(clientByInternalName.keySet(), inst);
    }
    AgentLog.info("started on " + (attach ? "attach" : "start-up") + " in "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beganNanos) + " ms, mode "
        + (options.enforce() ? "enforce" : "shadow") + ", clients " + (jdkClients.length() == 0 ? "(no JDK client)" : jdkClients)
        + watched(libraryClientNames, watch)
        + (options.events() != null ? ", events " + options.events().toAbsolutePath() : ""));
  }

  private static String watched(CharSequence libraryClients, LibraryWatch watch) {
    if (libraryClients.length() == 0) {
      return "";
    }
    return watch.watching() ? ", " + libraryClients + " (watched: " + watch.reason() + ")"
        : "; not watching for " + libraryClients + " (" + watch.reason() + ")";
  }

  /** Retransforms the loaded classes among {@code internalNames} (one loaded before the agent started). */
  private static void retransformLoaded(Set<String> internalNames, Instrumentation inst) {
    Set<String> names = new HashSet<>();
    for (String name : internalNames) {
      names.add(name.replace('/', '.'));
    }
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (names.contains(c.getName())) {
        loaded.add(c);
      }
    }
    retransform(loaded, inst);
  }

  private static void retransform(List<Class<?>> classes, Instrumentation inst) {
    for (Class<?> c : classes) {
      if (!inst.isModifiableClass(c)) {
        AgentLog.warn(c.getName() + " cannot be modified in this JVM; its client is not recorded");
        continue;
      }
      try {
        inst.retransformClasses(c);
      } catch (Throwable t) {
        AgentLog.warn("could not instrument the loaded " + c.getName() + "; its client is not recorded: " + t);
      }
    }
  }

  /**
   * What happens when the first instrumented class loads (or at once, for the Prometheus endpoint): the
   * recording starts and the weaver is loaded, each at most once. Both run on the thread that
   * loads the class, before the class is defined, so the very first request is recorded. (The recording
   * loads Micrometer, the runtime's classifier and JDK classes, never an instrumented class.)
   */
  private static final class FirstUse implements Supplier<Weaving> {
    private final AgentOptions options;
    private boolean recording;

    FirstUse(AgentOptions options) {
      this.options = options;
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
    public Weaving get() {
      try {
        startRecording();
      } catch (Throwable t) {
        AgentLog.warn("could not start recording; no request is recorded: " + t);
      }
      try {
        return WeaverLoader.load();
      } catch (java.io.IOException | ReflectiveOperationException e) {
        throw new IllegalStateException("could not load the weaver from the agent jar: " + e, e);
      }
    }
  }
}
