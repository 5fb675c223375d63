package dev.hfr.agent.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The measured application of {@link AgentOverhead}: {@code threads} threads send GET requests to a
 * loopback server as fast as they can, first for {@code warmupSeconds} (not measured), then for
 * {@code seconds}; prints {@code rps=... p50us=... p99us=... cpuus=...} (the last: the process's CPU time per
 * request in the measured window, which contention from other processes does not inflate as it does wall time). Run with and without the agent.
 *
 * <p>Usage: {@code LoopbackWorkload URL CLIENT(jdk|okhttp) THREADS WARMUP_SECONDS SECONDS}
 */
public final class LoopbackWorkload {

  private LoopbackWorkload() {}

  /** CPU time of the whole process (all threads: the clients, the JIT, the GC, the agent's). */
  static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
  }

  public static void main(String[] args) throws Exception {
    URI uri = URI.create(args[0]);
    String client = args[1];
    int threads = Integer.parseInt(args[2]);
    long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
    long measureNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[4]));
    HttpClient jdk = HttpClient.newHttpClient();
    OkHttpClient okhttp = new OkHttpClient();
    HttpRequest jdkRequest = HttpRequest.newBuilder(uri).GET().build();
    Request okRequest = new Request.Builder().url(uri.toString()).build();

    long[][] latencies = new long[threads][];
    int[] counts = new int[threads];
    CountDownLatch done = new CountDownLatch(threads);
    long start = System.nanoTime();
    long measureFrom = start + warmupNanos;
    long end = measureFrom + measureNanos;
    for (int t = 0; t < threads; t++) {
      int id = t;
      latencies[t] = new long[1 << 20];
      new Thread(() -> {
        try {
          while (true) {
            long before = System.nanoTime();
            if (before >= end) {
              break;
            }
            if (client.equals("jdk")) {
              HttpResponse<String> r = jdk.send(jdkRequest, HttpResponse.BodyHandlers.ofString());
              if (r.statusCode() != 200) {
                throw new IllegalStateException("status " + r.statusCode());
              }
            } else {
              try (Response r = okhttp.newCall(okRequest).execute()) {
                r.body().string();
              }
            }
            long after = System.nanoTime();
            if (before >= measureFrom && after <= end && counts[id] < latencies[id].length) {
              latencies[id][counts[id]++] = after - before;
            }
          }
        } catch (Exception e) {
          e.printStackTrace();
        } finally {
          done.countDown();
        }
      }, "workload-" + t).start();
    }
    TimeUnit.NANOSECONDS.sleep(Math.max(0, measureFrom - System.nanoTime()));
    long cpuAtStart = cpuNanos();
    done.await();
    long cpu = cpuNanos() - cpuAtStart;
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    double seconds = measureNanos / 1e9;
    System.out.printf("rps=%.1f p50us=%.1f p99us=%.1f cpuus=%.1f%n", total / seconds,
        all[(int) (total * 0.50)] / 1000.0, all[Math.min(total - 1, (int) Math.ceil(total * 0.99) - 1)] / 1000.0,
        cpu / 1000.0 / Math.max(1, total));
    System.exit(0);
  }
}
