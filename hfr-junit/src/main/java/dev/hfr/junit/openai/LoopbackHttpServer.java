package dev.hfr.junit.openai;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's HTTP server on an ephemeral port of 127.0.0.1, its requests handled on a small pool of daemon
 * threads: what each scripted model server runs on, so a test never waits for a leftover thread to exit.
 */
final class LoopbackHttpServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;

  private LoopbackHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds a port and starts serving every path with {@code handler}.
   *
   * @param name the threads' name and what a failure to bind names
   * @param threads how many requests are served at once
   */
  static LoopbackHttpServer start(String name, int threads, HttpHandler handler) {
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    } catch (IOException e) {
      throw new IllegalStateException("cannot bind a loopback port for the " + name + " server", e);
    }
    ExecutorService executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    http.createContext("/", handler);
    http.setExecutor(executor);
    http.start();
    return new LoopbackHttpServer(http, executor);
  }

  /** The base URL an OpenAI client is given, e.g. {@code http://127.0.0.1:41234/v1}. */
  String openAiBaseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
