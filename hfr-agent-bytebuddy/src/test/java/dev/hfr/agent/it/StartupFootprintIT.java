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
  private static final String SHADED_ASM = "dev.hfr.agent.shaded.org.objectweb.asm.";

  @Test
  @DisplayName("a JVM that uses no HTTP client: the JDK client's facade and the URL handlers are woven at start-up with ASM,"
      + " without Byte Buddy, Micrometer, the classifier or the libraries' hooks, and class data sharing stays on")
  void jdkClientsWovenAtStartUp() throws Exception {
    Run run = probe("summary.interval=0s");

    assertThat(run.stderr).contains("[hfr-agent] started on start-up");
    assertThat(run.classes).as("the agent ran and its bridge is in the bootstrap class loader")
        .contains("dev.hfr.agent.HfrAgent", "dev.hfr.agent.internal.bootstrap.HfrBridge");
    assertThat(run.classes).as("the JDK's clients are loaded (not initialised) and woven when the agent starts")
        .contains("jdk.internal.net.http.HttpClientFacade", "sun.net.www.protocol.http.Handler", "sun.net.www.protocol.https.Handler",
            "dev.hfr.agent.internal.weave.HookWeaver", SHADED_ASM + "ClassReader",
            "dev.hfr.agent.internal.instrumentation.JdkHttpClientInstrumentation",
            "dev.hfr.agent.internal.instrumentation.HttpUrlConnectionInstrumentation");
    assertThat(run.classes).as("nothing a JVM needs only once a request fails, or for other clients")
        .noneMatch(c -> c.startsWith(SHADED_BYTE_BUDDY))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.io.micrometer."))
        .noneMatch(c -> c.startsWith("dev.hfr.agent.shaded.dev.hfr.runtime."))
        .doesNotContain("dev.hfr.agent.internal.instrumentation.OkHttpInstrumentation",
            "dev.hfr.agent.internal.instrumentation.ApacheHttpClient5Instrumentation");
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
  @DisplayName("a JVM that sends one request weaves the JDK client's hooks with ASM, without Byte Buddy, and the request is recorded")
  void hooksWovenWithAsmOnFirstRequest() throws Exception {
    FaultServer server = new FaultServer();
    Path events = Files.createTempFile("hfr-agent-footprint", ".jsonl");
    try {
      Run run = probe("events=" + events + ",events.successes=true,summary.interval=0s",
          server.baseUrl() + "/ok");

      assertThat(run.classes).contains("dev.hfr.agent.internal.weave.HookWeaver", SHADED_ASM + "ClassReader", SHADED_ASM + "ClassWriter")
          .noneMatch(c -> c.startsWith(SHADED_BYTE_BUDDY));
      // Byte Buddy's Advice loaded about 680 classes here (1,215 with its AgentBuilder); ASM's reader and writer about 20
      assertThat(run.classes.stream().filter(c -> c.startsWith(SHADED_ASM))).hasSizeLessThan(40);
      assertThat(run.log).as("ASM is defined in the bootstrap class loader (not verified), not loaded from the agent jar")
          .filteredOn(line -> line.startsWith(SHADED_ASM)).isNotEmpty()
          .noneMatch(line -> line.contains("hfr-agent.jar"));
      assertThat(run.classes).as("only the JDK's clients' hooks are built (the libraries are not on the class path); a 200 needs no classifier")
          .contains("dev.hfr.agent.internal.instrumentation.JdkHttpClientInstrumentation")
          .doesNotContain("dev.hfr.agent.internal.instrumentation.OkHttpInstrumentation",
              "dev.hfr.agent.internal.instrumentation.ApacheHttpClient5Instrumentation",
              "dev.hfr.agent.shaded.dev.hfr.runtime.classify.DefaultFailureClassifier");
      assertThat(Files.readAllLines(events)).singleElement().asString()
          .contains("\"client\":\"jdk-httpclient\"", "\"method\":\"GET\"", "\"status\":200");
    } finally {
      server.close();
      Files.deleteIfExists(events);
    }
  }

  @Test
  @DisplayName("the recording, ASM, the hooks and the weaver are set up before the transformer is registered: the JVM hands it"
      + " only the few classes loaded while the JDK's clients are woven (it handed it some 130 before)")
  void transformerRegisteredOnlyForTheWeaving() throws Exception {
    String stderr = ForkedJvm.runToExit(List.of("-Dhfr.agent.debug=true", ForkedJvm.javaagent("summary.interval=0s")),
        ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class);

    Matcher removed = Pattern.compile("debug: removed the transformer: .*\\(it was handed (\\d+) classes\\)").matcher(stderr);
    assertThat(removed.find()).as("the debug line of the transformer's removal; stderr:%n%s", stderr).isTrue();
    // JDK 17: the facade and its interface OperationTrackers$Trackable, the two URL handlers, the hooks' Descriptors
    assertThat(Integer.parseInt(removed.group(1))).as("classes handed to the transformer").isBetween(3, 10);
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
