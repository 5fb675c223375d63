package dev.hfr.agent.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The server of {@code bench/startup-cpu.sh}: answers every request on 127.0.0.1 with 200 {@code ok},
 * prints its URL, and runs until it is killed. A process of its own, so its CPU is not in the measured JVMs'.
 */
public final class LoopbackServer {

  private LoopbackServer() {}

  public static void main(String[] args) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
    server.createContext("/", exchange -> {
      try (exchange) {
        exchange.sendResponseHeaders(200, ok.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(ok);
        }
      }
    });
    server.start();
    System.out.println("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    System.out.flush();
  }
}
