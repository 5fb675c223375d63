package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jars the agent writes into the temporary folder (the copy of the nested libraries jar for {@code prometheus.port};
 * with {@code -Dhfr.agent.bootstrap=jar} also the bridge's jar) are named after their
 * JVM's pid, so that a JVM killed with {@code SIGKILL}, whose exit code never runs, does not leave them for good: the
 * next JVM that writes one removes them (docs/AGENT.md, "Temporary files"). Every JVM here has a temporary folder of
 * its own test, never the machine's {@code /tmp}.
 */
@DisplayName("jars left in the temporary folder")
class LeftOverJarsIT {

  private static final Duration START = Duration.ofSeconds(60);

  @Test
  @DisplayName("a JVM killed with SIGKILL leaves its jars, the next JVM that writes one removes them; a running JVM's jar"
      + " stays until it exits; names of other patterns, live JVMs' jars, links, directories and other users' files stay")
  void killedJvmsJarsAreRemovedByTheNextJvm(@TempDir Path tmp) throws Exception {
    long killedPid;
    try (ForkedJvm killed = idleJvmWithEndpoint(tmp, "-Dhfr.agent.bootstrap=jar")) {
      killedPid = killed.pid();
      assertThat(kindsOfJarsOf(killedPid, tmp, List.of())).as("the jars of a running JVM (the fallback's, the libraries' copy)")
          .containsExactlyInAnyOrder("bootstrap", "libraries");
      killed.kill();
    }
    assertThat(kindsOfJarsOf(killedPid, tmp, List.of())).as("what SIGKILL left").containsExactlyInAnyOrder("bootstrap", "libraries");
    List<Path> notTheAgents = plantLookalikes(tmp, killedPid);

    try (ForkedJvm next = idleJvmWithEndpoint(tmp)) {
      assertThat(kindsOfJarsOf(killedPid, tmp, notTheAgents)).as("the killed JVM's jars, after the next JVM wrote its own").isEmpty();
      assertThat(kindsOfJarsOf(next.pid(), tmp, List.of())).as("the running JVM's copy").containsExactly("libraries");
      assertThat(notTheAgents).as("files that are not a gone JVM's jars of this agent").allMatch(LeftOverJarsIT::exists);
      assertThat(next.stderr()).doesNotContain("WARNING");

      next.send("exit");
      assertThat(next.waitFor(Duration.ofSeconds(30))).isZero();
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("after the JVM exited normally: only the files that are not the agent's")
          .containsExactlyInAnyOrderElementsOf(notTheAgents);
    }
  }

  /**
   * Files that must stay: names that only look like the agent's; a jar named after a live JVM (this one); and, named
   * like a gone JVM's jar, a symbolic link (with its target), a directory and a file of another user (when this test
   * may give a file away, as root).
   */
  private static List<Path> plantLookalikes(Path tmp, long deadPid) throws IOException {
    List<Path> planted = new ArrayList<>();
    for (String name : List.of(
        "hfr-agent-libraries-" + ProcessHandle.current().pid() + "-1f.jar", // this JVM is alive
        "hfr-agent-" + deadPid + ".jar", // no kind
        "hfr-agent-5731680927641983201.jar", // what Files.createTempFile named the copy before
        "hfr-agent-bootstrap-" + System.nanoTime() + ".jar", // what the bridge's jar was named before
        "hfr-agent-libraries-" + deadPid + "-1f.jar.part",
        "hfr-agent-libraries-" + deadPid + "-xyz.jar", // not hexadecimal
        "hfr-agent-Libraries-" + deadPid + "-1f.jar",
        "hfr-agent-libraries-" + deadPid + "-1f-2.jar",
        "my-hfr-agent-libraries-" + deadPid + "-1f.jar",
        "link-target.jar")) {
      planted.add(Files.writeString(tmp.resolve(name), "not the agent's"));
    }
    planted.add(Files.createSymbolicLink(tmp.resolve("hfr-agent-libraries-" + deadPid + "-2f.jar"), tmp.resolve("link-target.jar")));
    planted.add(Files.createDirectory(tmp.resolve("hfr-agent-libraries-" + deadPid + "-3f.jar")));
    Path othersFile = Files.writeString(tmp.resolve("hfr-agent-libraries-" + deadPid + "-4f.jar"), "another user's");
    try {
      UserPrincipal nobody = tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(othersFile, nobody);
      planted.add(othersFile);
    } catch (IOException | UnsupportedOperationException notRoot) {
      Files.delete(othersFile); // only root can give a file away; the other cases still hold
    }
    return planted;
  }

  private static boolean exists(Path file) {
    return Files.exists(file, LinkOption.NOFOLLOW_LINKS);
  }

  /** A JVM that runs until a line comes on stdin, the agent with the Prometheus endpoint, {@code tmp} its temporary folder. */
  private static ForkedJvm idleJvmWithEndpoint(Path tmp, String... jvmOptions) throws Exception {
    List<String> options = new ArrayList<>(List.of(jvmOptions));
    options.add("-Djava.io.tmpdir=" + tmp);
    options.add(ForkedJvm.javaagent("prometheus.port=0,summary.interval=0s"));
    ForkedJvm jvm = ForkedJvm.start(options, ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), LineWaiter.class);
    assertThat(jvm.nextLine(START)).isEqualTo("READY");
    return jvm;
  }

  /**
   * The kinds ({@code libraries}, {@code bootstrap}) of the agent's jars in {@code tmp} named after
   * {@code pid}, except the files {@link #plantLookalikes} planted.
   */
  private static List<String> kindsOfJarsOf(long pid, Path tmp, List<Path> planted) throws IOException {
    Pattern ofPid = Pattern.compile("hfr-agent-([a-z]+)-" + pid + "-[0-9a-f]+\\.jar");
    try (Stream<Path> files = Files.list(tmp)) {
      return files.filter(f -> !planted.contains(f))
          .map(f -> ofPid.matcher(f.getFileName().toString()))
          .filter(m -> m.matches())
          .map(m -> m.group(1))
          .toList();
    }
  }
}
