package dev.hfr.agent;

import dev.hfr.agent.internal.config.AgentOptions;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.agent.internal.telemetry.PrometheusEndpoint;
import dev.hfr.agent.internal.telemetry.QuietMicrometerLogging;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.List;

/**
 * The meters in a Micrometer Prometheus registry and the endpoint serving them, set up only when
 * {@code prometheus.port} is given. A class of its own so that {@link Recording} loads no Micrometer class
 * otherwise.
 */
final class PrometheusMetrics {

  private final PrometheusMeterRegistry registry;
  private final AgentMeters meters;

  PrometheusMetrics(String mode) {
    QuietMicrometerLogging.install();
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.meters = new AgentMeters(registry, mode);
  }

  AgentMeters meters() {
    return meters;
  }

  /** Starts the endpoint (reported on stderr either way) and adds it to what is closed at exit. */
  void serve(AgentOptions options, List<AutoCloseable> closeAtExit) {
    try {
      PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, options.prometheusHost(), options.prometheusPort());
      closeAtExit.add(endpoint);
      AgentLog.info("prometheus endpoint: http://" + endpoint.address().getHostString() + ":" + endpoint.address().getPort() + "/metrics");
    } catch (IOException | RuntimeException e) {
      AgentLog.warn("no prometheus endpoint on " + options.prometheusHost() + ":" + options.prometheusPort() + ": " + e);
    }
  }
}
