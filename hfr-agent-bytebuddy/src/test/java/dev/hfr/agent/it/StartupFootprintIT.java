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
  @DisplayName("a JVM that uses no HTTP client: the JDK client's facade and the URL handlers are woven at start-up with Byte Buddy's"
      + " Advice, without its AgentBuilder, Micrometer, the classifier or the libraries' advice, and class data sharing stays on")
  void jdkClientsWovenAtStartUp() throws Exception {
    Run run = probe("summary.interval=0s");

    assertThat(run.stderr).contains("[hfr-agent] started on start-up");
    assertThat(run.classes).as("the agent ran and its bridge is in the bootstrap class loader")
        .contains("dev.hfr.agent.HfrAgent", "dev.hfr.agent.internal.bootstrap.HfrBridge");
    assertThat(run.classes).as("the JDK's clients are loaded (not initialised) and woven when the agent starts")
        .contains("jdk.internal.net.http.HttpClientFacade", "sun.net.www.protocol.http.Handler", "sun.net.www.protocol.https.Handler",
            "dev.hfr.agent.internal.weave.AdviceWeaving", SHADED_BYTE_BUDDY + "asm.Advice",
            "dev.hfr.agent.internal.weave.JdkHttpClientInstrumentation",
            "dev.hfr.agent.internal.weave.HttpUrlConnectionInstrumentation");
    assertThat(run.classes).as("nothing a JVM needs only once a request fails, on attach, or for other clients")
        .doesNotContain(AGENT_BUILDER)
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.io.micrometer."))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.dev.hfr.runtime."))
        .doesNotContain("dev.hfr.agent.internal.weave.OkHttpInstrumentation",
            "dev.hfr.agent.internal.weave.ApacheHttpClient5Instrumentation");
    assertThat(run.classes).as("the advice templates are read as class files, never loaded")
        .noneMatch(c -> c.startsWith("dev.hfr.agent.internal.advice."));
    assertThat(run.classes).as("the bridge's class files are read from the agent jar directly, not through a jar: URL")
        .doesNotContain("sun.net.www.protocol.jar.JarURLConnection");
    assertThat(run.stderr).as("the bridge is defined without appending to the bootstrap path, which switches class data sharing off")
        .doesNotContain("Sharing is only supported for boot loader classes");
    assertThat(run.classes).as("no temporary file is written, nor are the left-overs of gone JVMs looked for")
        .doesNotContain("dev.hfr.agent.TempJars");
    assertThat(run.classes).as("HttpURLConnection's 66 KB implementation is woven before its first connection, not at start-up")
        .doesNotContain("sun.net.www.protocol.http.HttpURLConnection");
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
  @DisplayName("the recording, the weaver and the advice are set up before the transformer is registered: the JVM hands it"
      + " only the few classes loaded while the JDK's clients are woven")
  void transformerRegisteredOnlyForTheWeaving() throws Exception {
    String stderr = ForkedJvm.runToExit(List.of("-Dhfr.agent.debug=true", ForkedJvm.javaagent("summary.interval=0s")),
        ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class);

    Matcher removed = Pattern.compile("debug: removed the transformer: .*\\(it was handed (\\d+) classes\\)").matcher(stderr);
    assertThat(removed.find()).as("the debug line of the transformer's removal; stderr:%n%s", stderr).isTrue();
    // JDK 17: the facade, the two URL handlers, and what Byte Buddy loads while it weaves them
    assertThat(Integer.parseInt(removed.group(1))).as("classes handed to the transformer").isBetween(3, 40);
    assertThat(stderr).contains("instrumented jdk.internal.net.http.HttpClientFacade", "instrumented sun.net.www.protocol.http.Handler");
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
