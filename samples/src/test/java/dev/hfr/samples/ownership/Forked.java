package dev.hfr.samples.ownership;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a main class of the test class path in a new JVM, its output going to a file. */
final class Forked {

  private Forked() {}

  static Process start(Class<?> main, Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx128m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1"); // short-lived workers: start fast rather than peak fast
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  /** Waits (bounded) until {@code log} has a line starting with {@code prefix}. */
  static void awaitLine(Path log, String prefix, Process p) throws Exception {
    long until = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < until) {
      if (Files.exists(log) && Files.readAllLines(log).stream().anyMatch(l -> l.startsWith(prefix))) {
        return;
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("worker died before " + prefix + ": " + Files.readString(log));
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("no " + prefix + " in " + log + " within 60 s: " + Files.readString(log));
  }
}
