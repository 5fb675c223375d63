package dev.hfr.agent;

import dev.hfr.agent.bootstrap.HfrBridge;
import dev.hfr.agent.config.AgentOptions;
import dev.hfr.agent.enforce.RetryEnforcer;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Starts what records the HTTP calls: the meters, the events file, the Prometheus endpoint and the
 * stderr summary, and the recorder behind the bridge. A class of its own so that the start-up path
 * ({@link AgentInstaller}) never loads Micrometer or the runtime's classifier.
 */
final class Recording {

  private Recording() {}

  /** Creates the meters, the events file, the endpoint and summary, and connects the recorder to the bridge. */
  static void start(AgentOptions options) {
    String mode = options.enforce() ? "enforce" : "shadow";
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
}
