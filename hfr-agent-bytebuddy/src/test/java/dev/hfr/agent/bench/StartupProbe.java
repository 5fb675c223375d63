package dev.hfr.agent.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The start-up measurement of {@link AgentOverhead}: with no argument it returns at once (the cost of
 * the JVM and the agent's premain); with a URL it sends one request first (adding the instrumentation,
 * which the agent sets up when the first HTTP client class loads).
 */
public final class StartupProbe {

  private StartupProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(args[0])).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("status " + r.statusCode());
      }
    }
    if (args.length > 1 && args[1].equals("url-connection")) {
      java.net.HttpURLConnection c = (java.net.HttpURLConnection) URI.create(args[0]).toURL().openConnection();
      if (c.getResponseCode() != 200) {
        throw new IllegalStateException("status " + c.getResponseCode());
      }
      c.getInputStream().close();
    }
    // the CPU time the JVM (and the agent) spent to get here: less disturbed by a busy machine than wall time
    System.out.println("cpums=" + LoopbackWorkload.cpuNanos() / 1_000_000);
  }
}
