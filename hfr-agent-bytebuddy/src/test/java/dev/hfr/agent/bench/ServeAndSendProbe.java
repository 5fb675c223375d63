package dev.hfr.agent.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * The JVM {@code bench/startup-ratio.sh} measures: it serves HTTP on 127.0.0.1 and sends itself one request that fails
 * (503) and one that succeeds (200) over the JDK {@code HttpClient}, prints the two statuses and exits. A small
 * application that uses an HTTP client once, start-up to exit, so that what an agent adds to it is mostly what the
 * agent costs at start-up. With the argument {@code idle} it serves, sends nothing and prints {@code idle}: a JVM that
 * never uses an HTTP client, whose agent should then cost next to nothing.
 */
public final class ServeAndSendProbe {

  private ServeAndSendProbe() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      boolean fail = exchange.getRequestURI().getPath().equals("/fail");
      byte[] body = (fail ? "unavailable" : "ok").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(fail ? 503 : 200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    if (args.length > 0 && args[0].equals("idle")) {
      System.out.println("idle " + server.getAddress().getPort());
      server.stop(0);
      return;
    }
    try {
      HttpClient client = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + server.getAddress().getPort();
      for (String path : new String[] {"/fail", "/ok"}) {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
            HttpResponse.BodyHandlers.ofString());
        System.out.println(path + " " + response.statusCode());
      }
    } finally {
      server.stop(0);
    }
  }
}
