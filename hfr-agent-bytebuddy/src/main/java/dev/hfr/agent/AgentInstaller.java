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
 * Wires the agent once the bridge is in the bootstrap class loader. The JDK's clients are woven at once: their
 * classes are loaded (not initialised) and retransformed by a transformer registered for that alone. The
 * transformer stays registered only while the libraries' clients are watched ({@link LibraryWatch}): the JVM
 * calls a registered transformer for every class it loads, which is most of what an agent costs a JVM's start-up
 * (docs/AGENT.md, "Start-up"), so a JVM whose class path has neither OkHttp nor Apache HttpClient does not pay it.
 * The recorder (meters, events file, stderr summary) and the weaver (Byte Buddy, {@link WeaverLoader}) start with the
 * first weaving; the Prometheus endpoint, when asked for, starts at once. Attaching to a running JVM hands the weaving
 * to Byte Buddy's {@code AgentBuilder}, which retransforms what is loaded already.
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
    List<String> jdkClasses = new ArrayList<>();
    Set<String> libraryClasses = new HashSet<>();
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
        (inJdk ? jdkClasses : libraryClasses).add(name);
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
    LazyTransformer transformer =
        new LazyTransformer(Map.copyOf(clientByInternalName), firstUse, inst, HfrBridge.class.getModule());
    if (attach) {
      List<Integer> clients = new ArrayList<>(jdkClientSlots);
      if (watch.watching()) {
        clients.addAll(libraryClients);
      }
      Weaving weaving = transformer.delegate();
      if (weaving != null) {
        weaving.installOnAttach(inst, clients, HfrBridge.class.getModule());
      }
    } else if (watch.watching()) {
      inst.addTransformer(transformer, true);
      // the transformer stays: every instrumented class is woven when it loads, or now if it is loaded already
      Set<String> all = new HashSet<>(jdkClasses);
      all.addAll(libraryClasses);
      retransformLoaded(all, inst);
    } else {
      List<String> now = new ArrayList<>();
      List<String> onFirstConnection = new ArrayList<>();
      for (String name : jdkClasses) {
        (HttpClientInstrumentations.wovenOnFirstConnection(name) ? onFirstConnection : now).add(name);
      }
      if (!jdkClientSlots.isEmpty()) {
        // the recording, the weaver and the advice before the transformer is registered: the JVM hands a registered
        // transformer a copy of every class it loads, and those are hundreds of classes (docs/AGENT.md, "Start-up")
        transformer.prepare(jdkClientSlots);
      }
      inst.addTransformer(transformer, true);
      try {
        weaveJdkClasses(now, inst, transformer);
      } finally {
        removeTransformer(inst, transformer);
      }
      if (!onFirstConnection.isEmpty()) {
        HfrBridge.beforeFirstUrlConnection(new FirstUrlConnection(onFirstConnection, inst, transformer));
      }
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

  private static void removeTransformer(Instrumentation inst, LazyTransformer transformer) {
    // no transformer left: the JVM stops calling one for every class it loads
    inst.removeTransformer(transformer);
    AgentLog.debug("removed the transformer: the JVM calls none for the classes it loads from now on (it was handed "
        + transformer.handed() + " classes)");
  }

  /**
   * Loads the JDK clients' classes without initialising them (the JDK's own loaders: no application code runs), which
   * weaves them as they are defined; those that were loaded already are retransformed. A client whose module is not
   * in this runtime is left out.
   */
  static void weaveJdkClasses(List<String> classNames, Instrumentation inst, LazyTransformer transformer) {
    List<Class<?>> classes = new ArrayList<>(classNames.size());
    for (String name : classNames) {
      try {
        Class<?> c = Class.forName(name, false, ClassLoader.getPlatformClassLoader());
        if (!transformer.wovenWhenDefined(name.replace('.', '/'))) {
          classes.add(c);
        }
      } catch (ClassNotFoundException | LinkageError notInThisRuntime) {
        AgentLog.debug(name + " is not in this runtime: " + notInThisRuntime);
      }
    }
    retransform(classes, inst);
  }

  /** Retransforms the loaded classes among {@code classNames} (attaching; or a library class loaded before premain). */
  private static void retransformLoaded(Set<String> classNames, Instrumentation inst) {
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (classNames.contains(c.getName())) {
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
   * Run by the JDK URL handlers' hook before the first connection is created (when no transformer stays
   * registered): weaves the {@code HttpURLConnection} classes, with the transformer registered again for that
   * alone. Another thread opening a connection meanwhile waits for it; the same thread (were weaving to open a
   * connection) goes on without.
   */
  private static final class FirstUrlConnection implements Runnable {
    private final List<String> classNames;
    private final Instrumentation inst;
    private final LazyTransformer transformer;
    private boolean done;

    FirstUrlConnection(List<String> classNames, Instrumentation inst, LazyTransformer transformer) {
      this.classNames = classNames;
      this.inst = inst;
      this.transformer = transformer;
    }

    @Override
    public synchronized void run() {
      if (done) {
        return;
      }
      done = true;
      HfrBridge.beforeFirstUrlConnection(null);
      long began = System.nanoTime();
      inst.addTransformer(transformer, true);
      try {
        weaveJdkClasses(classNames, inst, transformer);
      } finally {
        removeTransformer(inst, transformer);
      }
      AgentLog.debug("wove the HttpURLConnection classes before the first connection in " + AgentLog.millisSince(began));
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
