package dev.hfr.agent.internal.telemetry;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * Serves the agent's meters in the Prometheus text format at {@code /metrics}. Off unless asked for;
 * bound to 127.0.0.1 unless told otherwise. Its threads are daemons, so it never keeps the
 * application's JVM alive.
 */
public final class PrometheusEndpoint implements AutoCloseable {

  private final HttpServer server;

  private PrometheusEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Binds and starts the endpoint. */
  public static PrometheusEndpoint start(PrometheusMeterRegistry registry, String host, int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 8);
    server.createContext("/metrics", exchange -> {
      try (exchange) {
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.setExecutor(Executors.newSingleThreadExecutor(r -> daemon(r, "hfr-agent-prometheus")));
    // The server's dispatcher thread inherits daemon status from the thread that starts it.
    Thread starter = daemon(server::start, "hfr-agent-prometheus-start");
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new PrometheusEndpoint(server);
  }

  /** The bound address (useful with port 0). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
