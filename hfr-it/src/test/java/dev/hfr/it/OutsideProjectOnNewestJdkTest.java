package dev.hfr.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An outside project on the newest JDK: compiled by that JDK's javac with the processor on the processor path
 * (what {@code annotationProcessorPaths} does in Maven), then run on that JDK with the agent attached. Since
 * JDK 23, javac no longer runs processors it merely finds on the class path; the first test pins that.
 */
@DisplayName("An outside project compiles with the processor and runs with the agent on the newest JDK")
class OutsideProjectOnNewestJdkTest {

  private static final String TOOLS = """
      package com.acme;

      import dev.hfr.annotations.Risk;
      import dev.hfr.annotations.SideEffect;
      import dev.hfr.runtime.classify.HttpCallException;
      import java.io.IOException;
      import java.net.URI;
      import java.net.http.HttpClient;
      import java.net.http.HttpRequest;
      import java.net.http.HttpResponse;

      public class OpsTools {
        private final HttpClient http = HttpClient.newHttpClient();

        @SideEffect(Risk.R0)
        public String status(String url) throws IOException, InterruptedException {
          HttpResponse<String> response =
              http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
          if (response.statusCode() >= 400) {
            throw HttpCallException.of(response);
          }
          return response.body();
        }
      }
      """;

  private static final String MAIN = """
      package com.acme;

      import com.sun.net.httpserver.HttpServer;
      import dev.hfr.runtime.Hfr;
      import dev.hfr.runtime.ledger.InMemoryLedger;
      import java.net.InetSocketAddress;
      import java.nio.charset.StandardCharsets;
      import java.util.concurrent.atomic.AtomicInteger;

      public class Main {
        public static void main(String[] args) throws Exception {
          AtomicInteger hits = new AtomicInteger();
          HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
          server.createContext("/status", exchange -> {
            boolean first = hits.incrementAndGet() == 1;
            byte[] body = (first ? "busy" : "ok").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(first ? 503 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
          });
          server.start();
          try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).build()) {
            OpsTools tools = OpsTools_Recovering.create(hfr);
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/status";
            System.out.println("status=" + tools.status(url) + " calls=" + hits.get()
                + " java=" + Runtime.version().feature());
          } finally {
            server.stop(0);
          }
        }
      }
      """;

  private static Path jdk;
  private static String classPath;

  @TempDir Path project;

  @BeforeAll
  static void findTheJdk() throws IOException {
    jdk = Path.of(System.getProperty("hfr.it.jdk", ""));
    assumeTrue(Files.isExecutable(jdk.resolve("bin/javac")), "no JDK at " + jdk + " (set -Dhfr.it.jdk=...)");
    classPath = Files.readString(Path.of(System.getProperty("hfr.it.classpath"))).trim();
  }

  @Test
  @DisplayName("the processor only on the class path generates nothing on JDK 23+ (the pitfall the docs warn of)")
  void theClassPathAloneGeneratesNothing() throws Exception {
    assumeTrue(feature() >= 23, "javac before 23 still runs class-path processors");
    Result compiled = javac(List.of());
    assertThat(compiled.exit()).isNotZero();
    assertThat(compiled.output()).contains("OpsTools_Recovering");
  }

  @Test
  @DisplayName("with the processor path it compiles, recovers a 503, and the agent classifies it")
  void withTheProcessorPathItCompilesAndRuns() throws Exception {
    Result compiled = javac(List.of("--processor-path", classPath));
    assertThat(compiled.exit()).as(compiled.output()).isZero();
    assertThat(project.resolve("classes/com/acme/OpsTools_Recovering.class")).exists();

    Path events = project.resolve("events.jsonl");
    String agent = System.getProperty("hfr.agent.jar");
    Result run = run(List.of(jdk.resolve("bin/java").toString(), "-javaagent:" + agent + "=events=" + events,
        "-cp", project.resolve("classes") + ":" + classPath, "com.acme.Main"));

    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output()).contains("status=ok calls=2 java=" + feature());
    assertThat(events).content().contains("\"status\":503", "\"fault\":\"T1\"");
  }

  private Result javac(List<String> processorOptions) throws Exception {
    Path src = project.resolve("src/com/acme");
    Files.createDirectories(src);
    Files.writeString(src.resolve("OpsTools.java"), TOOLS);
    Files.writeString(src.resolve("Main.java"), MAIN);
    List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/javac").toString(), "-d",
        project.resolve("classes").toString(), "-cp", classPath));
    command.addAll(processorOptions);
    command.add(src.resolve("OpsTools.java").toString());
    command.add(src.resolve("Main.java").toString());
    return run(command);
  }

  private Result run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("finished: " + command).isTrue();
    return new Result(process.exitValue(), output);
  }

  private static int feature() throws Exception {
    Process p = new ProcessBuilder(jdk.resolve("bin/java").toString(), "-version").redirectErrorStream(true).start();
    String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    var m = java.util.regex.Pattern.compile("version \"(\\d+)").matcher(version);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  private record Result(int exit, String output) {}
}
