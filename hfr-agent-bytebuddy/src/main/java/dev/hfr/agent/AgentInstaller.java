package dev.hfr.agent;

import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.none;

import dev.hfr.agent.bootstrap.HfrBridge;
import dev.hfr.agent.config.AgentOptions;
import dev.hfr.agent.enforce.RetryEnforcer;
import dev.hfr.agent.instrumentation.HttpClientInstrumentations;
import dev.hfr.agent.instrumentation.TypeInstrumentation;
import dev.hfr.agent.record.HostTags;
import dev.hfr.agent.record.HttpCallRecorder;
import dev.hfr.agent.record.ShadowDecider;
import dev.hfr.agent.telemetry.AgentMeters;
import dev.hfr.agent.telemetry.DecisionLog;
import dev.hfr.agent.telemetry.PrometheusEndpoint;
import dev.hfr.agent.telemetry.QuietMicrometerLogging;
import dev.hfr.agent.telemetry.SummaryReporter;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.time.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Wires the agent once the bridge is in the bootstrap class loader: the transformation of the
 * instrumented clients (retransforming classes that are already loaded) and, when the first of them
 * loads, the meters, the events file, the stderr summary and the recorder behind the bridge (the
 * Prometheus endpoint, when asked for, starts at once).
 */
final class AgentInstaller {

  private AgentInstaller() {}

  static void install(AgentOptions options, Instrumentation inst, String how, long beganNanos) throws Exception {
    String mode = options.enforce() ? "enforce" : "shadow";
    // The recorder (Micrometer, the classifier, the events file) starts with the first instrumented class,
    // unless the Prometheus endpoint was asked for: that one should answer from the start.
    Runnable startRecording = once(() -> startRecording(options, mode));
    if (options.prometheusPort() >= 0) {
      startRecording.run();
    }
    List<String> clients = instrument(options, inst, startRecording);
    AgentLog.info("started on " + how + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beganNanos) + " ms, mode "
        + mode + ", clients " + String.join(", ", clients)
        + (options.events() != null ? ", events " + options.events().toAbsolutePath() : ""));
  }

  /** Creates the meters, the events file, the endpoint and summary, and connects the recorder to the bridge. */
  private static void startRecording(AgentOptions options, String mode) {
    QuietMicrometerLogging.install();
    MeterRegistry registry = options.prometheusPort() >= 0
        ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)
        : new SimpleMeterRegistry();
    AgentMeters meters = new AgentMeters(registry, mode);
    DecisionLog events = options.events() == null ? null : DecisionLog.start(options.events(), meters);
    RetryEnforcer enforcer = options.enforce()
        ? new RetryEnforcer(options.retryMaxAttempts(), options.retryBase().toMillis(), options.retryCap().toMillis(),
            options.retryAfterMax().toMillis(), Clock.system(), meters)
        : null;
    HttpCallRecorder recorder = new HttpCallRecorder(
        new ShadowDecider(new DefaultFailureClassifier(), options.criticality()),
        meters, new HostTags(options.maxHosts()), events, options.eventsForSuccesses(), enforcer);
    HfrBridge.install(recorder);

    List<AutoCloseable> closeAtExit = new ArrayList<>();
    if (events != null) {
      closeAtExit.add(events);
    }
    if (registry instanceof PrometheusMeterRegistry prometheus) {
      try {
        PrometheusEndpoint endpoint = PrometheusEndpoint.start(prometheus, options.prometheusHost(), options.prometheusPort());
        closeAtExit.add(endpoint);
        AgentLog.info("prometheus endpoint: http://" + endpoint.address().getHostString() + ":" + endpoint.address().getPort() + "/metrics");
      } catch (IOException | RuntimeException e) {
        AgentLog.warn("no prometheus endpoint on " + options.prometheusHost() + ":" + options.prometheusPort() + ": " + e);
      }
    }
    if (!options.summaryInterval().isZero()) {
      closeAtExit.add(SummaryReporter.start(registry, System.err, options.summaryInterval().toMillis()));
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (AutoCloseable c : closeAtExit) {
        try {
          c.close();
        } catch (Exception ignored) {
          // the JVM is going away; nothing left to tell
        }
      }
    }, "hfr-agent-shutdown"));
  }

  private static Runnable once(Runnable action) {
    AtomicBoolean done = new AtomicBoolean();
    return () -> {
      if (done.compareAndSet(false, true)) {
        action.run();
      }
    };
  }

  /**
   * Registers the transformer and retransforms the instrumented classes that are loaded already (all
   * of them when attaching; {@code HttpURLConnection} perhaps at start-up). Answers the clients' names.
   */
  private static List<String> instrument(AgentOptions options, Instrumentation inst, Runnable startRecording) {
    List<TypeInstrumentation> enabled = new ArrayList<>();
    Set<String> internalNames = new HashSet<>();
    List<String> clients = new ArrayList<>();
    for (TypeInstrumentation instrumentation : HttpClientInstrumentations.all()) {
      if (options.instruments(instrumentation.client())) {
        enabled.add(instrumentation);
        clients.add(HfrBridge.clientName(instrumentation.client()));
        for (String name : instrumentation.classNames()) {
          internalNames.add(name.replace('.', '/'));
        }
      }
    }
    inst.addTransformer(new LazyTransformer(Set.copyOf(internalNames), () -> {
      startRecording.run();
      return byteBuddy(enabled);
    }, inst, HfrBridge.class.getModule()), true);
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (internalNames.contains(loaded.getName().replace('.', '/')) && inst.isModifiableClass(loaded)) {
        try {
          inst.retransformClasses(loaded);
        } catch (Throwable t) {
          AgentLog.warn("could not instrument the loaded " + loaded.getName() + "; its client is not recorded: " + t);
        }
      }
    }
    return clients;
  }

  /** The Byte Buddy transformer applying the advice; the caller has already matched the class name. */
  private static ClassFileTransformer byteBuddy(List<TypeInstrumentation> instrumentations) {
    ClassLoader agentLoader = AgentInstaller.class.getClassLoader();
    AgentBuilder builder = new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(new FailureReporter())
        // the default ignores every JDK class; LazyTransformer only passes on the classes named here
        .ignore(none());
    for (TypeInstrumentation instrumentation : instrumentations) {
      builder = builder.type(namedOneOf(instrumentation.classNames().toArray(String[]::new)))
          .transform(instrumentation.transformer(new AgentBuilder.Transformer.ForAdvice()
              .include(agentLoader)
              .withExceptionHandler(Advice.ExceptionHandler.Default.SUPPRESSING)));
    }
    return builder.makeRaw();
  }

  /** Reports each class that could not be instrumented, once; that class, and so its client, stays as it was. */
  private static final class FailureReporter extends AgentBuilder.Listener.Adapter {
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    @Override
    public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded, Throwable throwable) {
      if (reported.add(typeName)) {
        AgentLog.warn("could not instrument " + typeName + "; its client is not recorded: " + throwable);
      }
    }

    @Override
    public void onTransformation(TypeDescription type, ClassLoader classLoader, JavaModule module, boolean loaded,
        DynamicType dynamicType) {
      if (Boolean.getBoolean("hfr.agent.debug")) {
        AgentLog.info("instrumented " + type.getName() + (loaded ? " (retransformed)" : ""));
      }
    }
  }
}
