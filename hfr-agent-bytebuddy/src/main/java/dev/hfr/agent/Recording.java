package dev.hfr.agent;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions;
import dev.hfr.agent.internal.enforce.RetryEnforcer;
import dev.hfr.agent.internal.record.HostTags;
import dev.hfr.agent.internal.record.HttpCallRecorder;
import dev.hfr.agent.internal.record.ShadowDecider;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.agent.internal.telemetry.DecisionLog;
import dev.hfr.agent.internal.telemetry.SummaryReporter;
import dev.hfr.runtime.time.Clock;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts what records the HTTP calls: the meters, the events file, the Prometheus endpoint and the
 * stderr summary, and the recorder behind the bridge. A class of its own so that the start-up path
 * ({@link AgentInstaller}) never loads the recorder; the runtime's classifier waits for the first failure
 * ({@link ShadowDecider}); Micrometer is set up only for the
 * Prometheus endpoint ({@link PrometheusMetrics}).
 */
final class Recording {

  private Recording() {}

  /** Creates the meters, the events file, the endpoint and summary, and connects the recorder to the bridge. */
  static void start(AgentOptions options) {
    String mode = options.enforce() ? "enforce" : "shadow";
    PrometheusMetrics prometheus = options.prometheusPort() >= 0 ? prometheus(options, mode) : null;
    AgentMeters meters = prometheus != null ? prometheus.meters() : new AgentMeters();
    DecisionLog events = options.events() == null ? null : DecisionLog.start(options.events(), meters);
    RetryEnforcer enforcer = options.enforce()
        ? new RetryEnforcer(options.retryMaxAttempts(), options.retryBase().toMillis(), options.retryCap().toMillis(),
            options.retryAfterMax().toMillis(), options.retryBudget(), Clock.system(), meters)
        : null;
    HttpCallRecorder recorder = new HttpCallRecorder(
        new ShadowDecider(options.criticality()),
        meters, new HostTags(options.maxHosts()), events, options.eventsForSuccesses(), enforcer);
    HfrBridge.install(recorder);

    List<AutoCloseable> closeAtExit = new ArrayList<>();
    if (events != null) {
      closeAtExit.add(events);
    }
    if (prometheus != null) {
      prometheus.serve(options, closeAtExit);
    }
    if (!options.summaryInterval().isZero()) {
      closeAtExit.add(SummaryReporter.start(meters, System.err, options.summaryInterval().toMillis()));
    }
    Runtime.getRuntime().addShutdownHook(new CloseAtExit(closeAtExit));
  }

  /**
   * Micrometer's registry for the endpoint, its libraries opened first (before the first class that refers to them);
   * when they cannot be (no temporary folder to copy them to), no endpoint, and the calls are recorded all the same.
   */
  private static PrometheusMetrics prometheus(AgentOptions options, String mode) {
    try {
      NestedJar.LIBRARIES.open();
    } catch (UncheckedIOException e) {
      AgentLog.warn("no prometheus endpoint on " + options.prometheusHost() + ":" + options.prometheusPort() + ": " + e.getMessage()
          + ": " + e.getCause());
      return null;
    }
    return new PrometheusMetrics(mode);
  }

  /** Closes the events file (writing what is queued), the endpoint and the summary when the JVM exits. */
  private static final class CloseAtExit extends Thread {
    private final List<AutoCloseable> closeables;

    CloseAtExit(List<AutoCloseable> closeables) {
      super("hfr-agent-shutdown");
      this.closeables = closeables;
    }

    @Override
    public void run() {
      for (AutoCloseable c : closeables) {
        try {
          c.close();
        } catch (Exception ignored) {
          // the JVM is going away; nothing left to tell
        }
      }
    }
  }
}
