package dev.hfr.agent;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import dev.hfr.agent.internal.instrumentation.LibraryWatch;
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
 * The weaver (ASM) is set up with the first weaving; the recorder (meters, events file, stderr summary) starts with
 * the first call of a woven client, or at once when the Prometheus endpoint is asked for.
 *
 * <p>This is the start-up path of every JVM the agent is in, so it is kept cheap on purpose: it loads no
 * instrumentation class before weaving (the class names are constants), and it creates no lambda, whose first
 * use in a JVM costs tens of milliseconds of {@code java.lang.invoke} set-up.
 */
final class AgentInstaller {

  /** The superclass of the JDK client's facade, loaded by the platform class loader from the runtime image. */
  private static final String JDK_CLIENT_SUPERCLASS = "java.net.http.HttpClient";

  private AgentInstaller() {}

  static void install(AgentOptions options, Instrumentation inst, boolean attach, long beganNanos) {
    // the instrumented classes by name only: no instrumentation class is loaded before one of them is woven
    Map<String, Integer> clientByInternalName = new HashMap<>();
    List<String> jdkClasses = new ArrayList<>();
    Set<String> libraryClasses = new HashSet<>();
    List<Integer> libraryClients = new ArrayList<>();
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
      if (!inJdk) {
        libraryClients.add(client);
      }
      StringBuilder names = inJdk ? jdkClients : libraryClientNames;
      names.append(names.length() == 0 ? "" : ", ").append(HfrBridge.clientName(client));
    }
    FirstUse firstUse = new FirstUse(options, Map.copyOf(clientByInternalName));
    if (options.prometheusPort() >= 0) {
      firstUse.run(); // the endpoint should answer from the start
    } else {
      HfrBridge.startRecordingOnFirstCall(firstUse);
    }
    LibraryWatch watch = LibraryWatch.decide(options.watch(), libraryClients, attach,
        LibraryWatch.classPath(System.getProperty("java.class.path", "")));
    LazyTransformer transformer =
        new LazyTransformer(Set.copyOf(clientByInternalName.keySet()), firstUse, inst, HfrBridge.class.getModule());
    if (watch.watching()) {
      // the transformer stays: every instrumented class is woven when it loads, or now if it is loaded already
      inst.addTransformer(transformer, true);
      Set<String> all = new HashSet<>(jdkClasses);
      all.addAll(libraryClasses);
      retransformLoaded(all, inst);
    } else {
      List<String> now = new ArrayList<>();
      List<String> onFirstConnection = new ArrayList<>();
      for (String name : jdkClasses) {
        (HttpClientInstrumentations.wovenOnFirstConnection(name) ? onFirstConnection : now).add(name);
      }
      if (!now.isEmpty()) {
        // the weaver and these clients' hooks before the transformer is registered: the JVM calls it for every class
        // it loads meanwhile (with a copy of its class file), and those would be a hundred of the agent's own
        transformer.prepare(now);
        // the platform class loader's first class from the runtime image sets up its image reader, some 25 shared
        // classes whose class files the JVM would read back for the transformer; the facade's superclass does it here
        loadWithoutTransformer(JDK_CLIENT_SUPERCLASS);
      }
      inst.addTransformer(transformer, true);
      try {
        weaveJdkClasses(now, inst, transformer);
        if (attach) {
          retransformLoaded(libraryClasses, inst); // woven now, not watched for later
        }
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

  private static void loadWithoutTransformer(String className) {
    try {
      Class.forName(className, false, ClassLoader.getPlatformClassLoader());
    } catch (ClassNotFoundException | LinkageError notInThisRuntime) {
      // then nothing to set up early
    }
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
    AgentLog.debug("removed the transformer: the JVM calls none for the classes it loads from now on");
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
   * What happens on first use, each at most once: the hook transformer is built when the first instrumented class
   * is woven ({@link #get}), on the thread that weaves it; the recording starts ({@link #run}) when a woven client
   * makes its first call (through the bridge, on the calling thread, before the call goes on, so that the very first
   * request is recorded), or at once for the Prometheus endpoint. A JVM that sends no request never pays for the
   * recording. (The recording loads Micrometer, the runtime's classifier and JDK classes, never an instrumented class.)
   */
  private static final class FirstUse implements Supplier<HookTransformer>, Runnable {
    private final AgentOptions options;
    private final Map<String, Integer> clientByInternalName;
    private boolean recording;

    FirstUse(AgentOptions options, Map<String, Integer> clientByInternalName) {
      this.options = options;
      this.clientByInternalName = clientByInternalName;
    }

    /** Starts the recording; a second call (another thread, which waited for the first; or the same one) does nothing. */
    @Override
    public synchronized void run() {
      if (recording) {
        return;
      }
      recording = true;
      long began = System.nanoTime();
      try {
        Recording.start(options);
        AgentLog.debug("started recording in " + AgentLog.millisSince(began));
      } catch (Throwable t) {
        AgentLog.warn("could not start recording; no request is recorded: " + t);
      } finally {
        HfrBridge.startRecordingOnFirstCall(null);
      }
    }

    @Override
    public HookTransformer get() {
      WeaverClasses.defineInBootstrap(); // before anything loads an ASM or weaver class through the system class loader
      long began = System.nanoTime();
      HookTransformer transformer = new HookTransformer(clientByInternalName, HfrBridge.CLIENTS);
      AgentLog.debug("set up the hooks in " + AgentLog.millisSince(began));
      return transformer;
    }
  }
}
