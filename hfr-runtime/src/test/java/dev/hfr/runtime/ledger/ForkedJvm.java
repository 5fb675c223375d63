package dev.hfr.runtime.ledger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a main class of the test classpath in a new JVM, its output going to a file. */
final class ForkedJvm {

  private ForkedJvm() {}

  static Process start(Class<?> main, Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx128m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1"); // short-lived drivers: start fast rather than peak fast
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  /** Waits (up to a minute) until {@code process} has written the line {@code line} to {@code log}; fails if it dies first. */
  static void awaitLine(Path log, String line, Process process) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && Files.readAllLines(log).contains(line)) {
        return;
      }
      if (!process.isAlive()) {
        throw new AssertionError("the forked JVM died before printing " + line + ": " + output(log));
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the forked JVM did not print " + line + " in time: " + output(log));
  }

  private static String output(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log) : "no output";
  }
}
