package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.bench.StartupProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the agent loads into a JVM, read from the JVM's own class-loading log ({@code -Xlog:class+load})
 * rather than timed: class counts do not move with the load of a shared CI machine, wall time does. The
 * start-up figures themselves are a benchmark (docs/AGENT.md, "Start-up").
 */
@DisplayName("the agent's start-up footprint")
class StartupFootprintIT {

  private static final String SHADED_BYTE_BUDDY = "dev.hfr.agent.shaded.net.bytebuddy.";
  private static final String AGENT_BUILDER = SHADED_BYTE_BUDDY + "agent.builder.AgentBuilder";

  @Test
  @DisplayName("a JVM that uses no HTTP client loads nothing of the weaver: no Byte Buddy class, no advice, no client class,"
      + " no Micrometer, no classifier, and class data sharing stays on")
  void nothingWovenWithoutAClient() throws Exception {
    Run run = probe("summary.interval=0s");

    assertThat(run.stderr).contains("[hfr-agent] started on start-up");
    assertThat(run.classes).as("the agent ran, its bridge is in the bootstrap class loader and its transformer is registered")
        .contains("dev.hfr.agent.HfrAgent", "dev.hfr.agent.internal.bootstrap.HfrBridge", "dev.hfr.agent.LazyTransformer");
    assertThat(run.classes).as("no client class is loaded by the agent, and nothing of the weaver")
        .doesNotContain("jdk.internal.net.http.HttpClientFacade", "java.net.HttpURLConnection", "dev.hfr.agent.WeaverLoader",
            "dev.hfr.agent.internal.weave.AdviceWeaving")
        .noneMatch(c -> c.startsWith(SHADED_BYTE_BUDDY))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.internal.weave."))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.internal.advice."));
    assertThat(run.classes).as("nothing a JVM needs only once it records a request")
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.io.micrometer."))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.dev.hfr.runtime."))
        .doesNotContain("dev.hfr.agent.internal.record.HttpCallRecorder");
    assertThat(run.classes).as("the bridge's class files are read from the agent jar directly, not through a jar: URL")
        .doesNotContain("sun.net.www.protocol.jar.JarURLConnection");
    assertThat(run.stderr).as("the bridge is defined without appending to the bootstrap path, which switches class data sharing off")
        .doesNotContain("Sharing is only supported for boot loader classes");
    assertThat(run.classes).as("no temporary file is written, nor are the left-overs of gone JVMs looked for")
        .doesNotContain("dev.hfr.agent.TempJars");
  }

  @Test
  @DisplayName("a JVM that sends one request weaves the JDK client with the few hundred Byte Buddy classes Advice needs, read from"
      + " the nested weaver jar, and the request is recorded")
  void adviceWovenOnFirstRequest() throws Exception {
    FaultServer server = new FaultServer();
    Path events = Files.createTempFile("hfr-agent-footprint", ".jsonl");
    try {
      Run run = probe("events=" + events + ",events.successes=true,summary.interval=0s",
          server.baseUrl() + "/ok");

      assertThat(run.classes).contains("dev.hfr.agent.WeaverLoader", SHADED_BYTE_BUDDY + "ByteBuddy").doesNotContain(AGENT_BUILDER);
      // Advice on a decorated type loads about 710 of the nested jar's 2,500; AgentBuilder, some 500 more
      assertThat(run.classes.stream().filter(c -> c.startsWith(SHADED_BYTE_BUDDY))).hasSizeLessThan(800);
      assertThat(run.log).as("Byte Buddy is defined by the weaver's loader (under the agent jar's code source), not from the CDS archive")
          .filteredOn(line -> line.startsWith(SHADED_BYTE_BUDDY) && !line.contains("__dynamic_proxy__")).isNotEmpty()
          .allMatch(line -> line.contains("hfr-agent.jar"));
      assertThat(run.classes).as("only the JDK's clients' hooks are built (the libraries are not on the class path); a 200 needs no classifier")
          .contains("dev.hfr.agent.internal.weave.JdkHttpClientInstrumentation")
          .doesNotContain("dev.hfr.agent.internal.weave.OkHttpInstrumentation",
              "dev.hfr.agent.internal.weave.ApacheHttpClient5Instrumentation",
              "dev.hfr.agent.shaded.dev.hfr.runtime.classify.DefaultFailureClassifier");
      assertThat(Files.readAllLines(events)).singleElement().asString()
          .contains("\"client\":\"jdk-httpclient\"", "\"method\":\"GET\"", "\"status\":200");
    } finally {
      server.close();
      Files.deleteIfExists(events);
    }
  }

  @Test
  @DisplayName("the transformer removes itself once the JDK's clients (HttpClient, HttpURLConnection) are woven, each when it"
      + " first loads: the JVM then stops handing it every class it loads")
  void transformerRemovedOnceTheJdkClientsAreWoven() throws Exception {
    FaultServer server = new FaultServer();
    try {
      String stderr = ForkedJvm.runToExit(List.of("-Dhfr.agent.debug=true", ForkedJvm.javaagent("summary.interval=0s")),
          ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class, server.baseUrl() + "/ok", "url-connection");

      assertThat(stderr).contains("instrumented jdk.internal.net.http.HttpClientFacade", "instrumented java.net.HttpURLConnection",
          "instrumented sun.net.www.protocol.http.HttpURLConnection");
      Matcher removed = Pattern.compile("debug: removed the transformer: every JDK client is woven \\(it was handed (\\d+) classes\\)")
          .matcher(stderr);
      assertThat(removed.find()).as("the debug line of the transformer's removal; stderr:%n%s", stderr).isTrue();
      assertThat(stderr.indexOf("instrumented sun.net.www.protocol.http.HttpURLConnection"))
          .as("removed after the last of them").isLessThan(removed.start());
    } finally {
      server.close();
    }
  }

  /** What one {@link StartupProbe} JVM with the agent loaded, and said on stderr. */
  private record Run(List<String> classes, List<String> log, String stderr) {}

  private static Run probe(String agentOptions, String... probeArgs) throws IOException, InterruptedException {
    Path classLog = Files.createTempFile("hfr-agent-classes", ".log");
    try {
      String err = ForkedJvm.runToExit(List.of(ForkedJvm.classLoadLog(classLog), ForkedJvm.javaagent(agentOptions)),
          ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class, probeArgs);
      // lines read "[0.123s][info][class,load] a.b.C source: ..."
      List<String> log = Files.readAllLines(classLog).stream()
          .map(line -> line.substring(line.indexOf("] ", line.indexOf("[class,load]")) + 2))
          .toList();
      return new Run(log.stream().map(rest -> rest.split(" ", 2)[0]).toList(), log, err);
    } finally {
      Files.deleteIfExists(classLog);
    }
  }
}
