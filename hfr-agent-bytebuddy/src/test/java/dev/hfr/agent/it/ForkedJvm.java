package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A {@link ClientDriver} running in a JVM of its own, with only the driver and the HTTP client
 * libraries on its class path (never the agent's classes: those come from the agent jar alone).
 */
final class ForkedJvm implements AutoCloseable {

  private static final String END = "\u0000end-of-stdout";
  /** The driver's own classes and the client libraries it drives. */
  private static final Pattern DRIVER_CLASSPATH =
      Pattern.compile(".*(test-classes|okhttp|okio|kotlin|httpclient5|httpcore5|slf4j|jetbrains|annotations-).*");

  private final Process process;
  private final Path stderr;
  private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
  private final Writer stdin;

  private ForkedJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          stdout.add(line);
        }
      } catch (IOException ignored) {
        // the process is gone; END below says so
      }
      stdout.add(END);
    }, "forked-jvm-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /** The built, shaded agent jar (set by the build). */
  static Path agentJar() {
    String jar = System.getProperty("hfr.agent.jar");
    assertThat(jar).as("system property hfr.agent.jar (set by failsafe)").isNotNull();
    assertThat(Path.of(jar)).as("the agent jar; run `mvn verify`, it is built in package").exists();
    return Path.of(jar);
  }

  /** {@code -javaagent:<jar>=options} */
  static String javaagent(String options) {
    return "-javaagent:" + agentJar() + (options.isEmpty() ? "" : "=" + options);
  }

  /** Starts the driver with {@code jvmOptions} and {@code driverArgs}. */
  static ForkedJvm start(List<String> jvmOptions, String... driverArgs) throws IOException {
    return start(jvmOptions, testClasspath(DRIVER_CLASSPATH), ClientDriver.class, driverArgs);
  }

  /** Starts {@code main} with {@code jvmOptions}, {@code classpath} and {@code args}. */
  static ForkedJvm start(List<String> jvmOptions, String classpath, Class<?> main, String... args) throws IOException {
    List<String> command = command(jvmOptions, classpath, main, args);
    Path err = Files.createTempFile("hfr-agent-it", ".stderr");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    return new ForkedJvm(p, err);
  }

  /** The command line that runs {@code main} on this JVM's {@code java} with {@code jvmOptions}, {@code classpath}, {@code args}. */
  private static List<String> command(List<String> jvmOptions, String classpath, Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xshare:auto");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }

  /**
   * {@code -Xlog} writing the classes the JVM loads into {@code file} ({@code [0.123s][info][class,load] a.b.C source: ...}),
   * without rotation: the JVM would move an existing {@code file} (one from {@code Files.createTempFile}) aside to
   * {@code file.0} first, which nothing deletes (hundreds of them piled up in {@code /tmp}).
   */
  static String classLoadLog(Path file) {
    return "-Xlog:class+load=info:file=" + file + ":uptime,level,tags:filecount=0";
  }

  /** This module's test classes alone: {@code StartupProbe}'s class path. */
  static final Pattern TEST_CLASSES = Pattern.compile(".*test-classes.*");

  /**
   * Runs {@code main} to its end with {@code jvmOptions}, {@code classpath} and {@code args}, its stdout discarded,
   * and returns its stderr; fails unless it exits with 0 within a minute.
   */
  static String runToExit(List<String> jvmOptions, String classpath, Class<?> main, String... args)
      throws IOException, InterruptedException {
    List<String> command = command(jvmOptions, classpath, main, args);
    Path err = Files.createTempFile("hfr-agent-it", ".stderr");
    try {
      Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s exits", main.getSimpleName()).isTrue();
      String stderr = Files.readString(err);
      assertThat(p.exitValue()).as("%s's exit code; stderr:%n%s", main.getSimpleName(), stderr).isZero();
      return stderr;
    } finally {
      Files.deleteIfExists(err);
    }
  }

  /** The entries of this JVM's class path that match {@code entries}, joined into a class path. */
  static String testClasspath(Pattern entries) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> entries.matcher(e).matches())
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The process id, for attaching. */
  long pid() {
    return process.pid();
  }

  /** The next line of stdout, failing after {@code timeout}. */
  String nextLine(Duration timeout) throws InterruptedException {
    String line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(line).as("a line from the driver within %s; stderr:%n%s", timeout, stderr()).isNotNull().isNotEqualTo(END);
    return line;
  }

  /** Lines of stdout up to (not including) {@code marker}, or to the end of the process when marker is null. */
  List<String> linesUntil(String marker, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> lines = new ArrayList<>();
    while (true) {
      String line = stdout.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      assertThat(line).as("the driver's output within %s; so far %s; stderr:%n%s", timeout, lines, stderr()).isNotNull();
      if (line.equals(END)) {
        assertThat(marker).as("the driver ended before printing %s; stderr:%n%s", marker, stderr()).isNull();
        return lines;
      }
      if (line.equals(marker)) {
        return lines;
      }
      lines.add(line);
    }
  }

  /** Writes a line to the driver's stdin. */
  void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Kills the JVM with {@code SIGKILL} (no shutdown hook, no exit code runs) and waits until it is gone. */
  void kill() throws InterruptedException {
    assertThat(process.destroyForcibly().waitFor(30, TimeUnit.SECONDS)).as("the killed JVM is gone").isTrue();
  }

  /** Waits for the exit and returns the exit code. */
  int waitFor(Duration timeout) throws InterruptedException {
    assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("the driver exits; stderr:%n%s", stderr()).isTrue();
    return process.exitValue();
  }

  /** What the JVM wrote to stderr so far (the agent's messages go there). */
  String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public void close() throws IOException {
    process.destroyForcibly();
    Files.deleteIfExists(stderr);
  }
}
