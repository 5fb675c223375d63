package dev.hfr.samples.temporal.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Worker JVMs ({@link WorkerMain}) on this JVM's class path, started together and stopped together. */
public final class WorkerJvms implements AutoCloseable {

  private final List<Process> processes;

  private WorkerJvms(List<Process> processes) {
    this.processes = processes;
  }

  /**
   * Starts {@code count} workers named {@code worker-1} .. and returns once each polls its task queue.
   *
   * @param jdbcUrl the shared PostgreSQL of HFR's ledger and fleet, or {@code null} for Temporal's retries alone
   */
  public static WorkerJvms start(int count, int temporalPort, URI shop, String taskQueue, String jdbcUrl)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> processes = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      processes.add(new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
          System.getProperty("java.class.path"), WorkerMain.class.getName(), Integer.toString(temporalPort),
          shop.toString(), taskQueue, "worker-" + i, jdbcUrl == null ? "-" : jdbcUrl)
          .redirectErrorStream(true).start());
    }
    WorkerJvms jvms = new WorkerJvms(processes);
    for (Process p : processes) {
      jvms.awaitReady(p);
    }
    return jvms;
  }

  /** The worker named {@code worker-<n>}. */
  public Process worker(int n) {
    return processes.get(n - 1);
  }

  /** Kills the worker with SIGKILL and waits until it is gone. */
  public void kill(int n) {
    Process p = worker(n);
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    processes.forEach(Process::destroyForcibly);
  }

  private void awaitReady(Process p) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.equals("ready")) {
        Path log = Path.of(System.getProperty("java.io.tmpdir"), "hfr-temporal-worker-" + p.pid() + ".log");
        Thread drain = new Thread(() -> {
          try (java.io.Writer to = java.nio.file.Files.newBufferedWriter(log)) {
            for (String l = out.readLine(); l != null; l = out.readLine()) {
              to.write(l);
              to.write('\n');
              to.flush();
            }
          } catch (IOException ended) {
            // the worker is gone
          }
        }, "worker-output");
        drain.setDaemon(true);
        drain.start();
        return;
      }
      seen.append(line).append('\n');
    }
    close();
    throw new IOException("a worker JVM ended before it was ready:\n" + seen);
  }
}
