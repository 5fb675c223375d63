package dev.hfr.agent.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The agent's overhead, measured in one run: throughput and p99 latency of a loopback HTTP workload
 * ({@link LoopbackWorkload}) in JVMs without and with {@code -javaagent:hfr-agent.jar} (shadow mode,
 * default options), alternating, several rounds, medians reported; and the start-up time the agent adds
 * ({@link StartupProbe}), both to an empty {@code main} and to a {@code main} that sends one request, beside
 * that of an agent that does nothing ({@link NoOpAgent}), the floor of any transforming agent.
 * Not a test: run it by hand, see docs/AGENT.md.
 *
 * <p>Usage: {@code AgentOverhead AGENT_JAR [ROUNDS] [SECONDS]} (0 rounds: the start-up figures only)
 */
public final class AgentOverhead {

  private static final Pattern RESULT = Pattern.compile("rps=([0-9.]+) p50us=([0-9.]+) p99us=([0-9.]+) cpuus=([0-9.]+)");
  private static final Pattern CPU = Pattern.compile("cpums=([0-9]+)");
  private static final Pattern CLASSPATH = Pattern.compile(".*(test-classes|okhttp|okio|kotlin).*");

  private AgentOverhead() {}

  public static void main(String[] args) throws Exception {
    String agent = "-javaagent:" + Path.of(args[0]).toAbsolutePath();
    String noOpAgent = "-javaagent:" + NoOpAgent.jar();
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String seconds = args.length > 2 ? args[2] : "8";
    String classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> CLASSPATH.matcher(e).matches()).collect(Collectors.joining(File.pathSeparator));

    // without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: 40 ms a request
    System.setProperty("sun.net.httpserver.nodelay", "true");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
    server.createContext("/ok", exchange -> {
      try (exchange) {
        exchange.getRequestBody().readAllBytes();
        exchange.sendResponseHeaders(200, ok.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(ok);
        }
      }
    });
    server.setExecutor(pool);
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/ok";
    try {
      System.out.printf("cores %d, %d rounds of %s s per JVM, 2 client threads, server %s%n",
          Runtime.getRuntime().availableProcessors(), rounds, seconds, url);
      System.out.println("| client | req/s without | req/s with | throughput change | p99 without | p99 with | CPU/request without | CPU/request with |");
      System.out.println("|---|---|---|---|---|---|---|---|");
      for (String client : rounds == 0 ? List.<String>of() : List.of("jdk", "okhttp")) {
        List<double[]> without = new ArrayList<>();
        List<double[]> with = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
          without.add(workload(classpath, null, url, client, seconds));
          with.add(workload(classpath, agent, url, client, seconds));
        }
        double rpsWithout = median(without, 0);
        double rpsWith = median(with, 0);
        System.out.printf("| %s | %.0f | %.0f | %+.1f %% | %.0f µs | %.0f µs | %.0f µs | %.0f µs |%n", client, rpsWithout, rpsWith,
            100.0 * (rpsWith - rpsWithout) / rpsWithout, median(without, 2), median(with, 2), median(without, 3), median(with, 3));
      }

      System.out.println();
      System.out.println("| start-up (median of 7) | wall without | wall no-op agent | wall with | added | CPU without | CPU no-op agent | CPU with | added CPU |");
      System.out.println("|---|---|---|---|---|---|---|---|---|");
      startup(classpath, agent, noOpAgent, "empty main", List.of());
      startup(classpath, agent, noOpAgent, "main sending one request", List.of(url));
    } finally {
      server.stop(0);
      pool.shutdownNow();
    }
  }

  private static double[] workload(String classpath, String agent, String url, String client, String seconds)
      throws IOException, InterruptedException {
    List<String> command = java(classpath, agent);
    command.addAll(List.of(LoopbackWorkload.class.getName(), url, client, "2", "3", seconds));
    String out = run(command);
    Matcher m = RESULT.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no result from the workload: " + out);
    }
    return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
        Double.parseDouble(m.group(4))};
  }

  private static void startup(String classpath, String agent, String noOpAgent, String label, List<String> probeArgs)
      throws IOException, InterruptedException {
    long[][] without = new long[7][];
    long[][] noOp = new long[7][];
    long[][] with = new long[7][];
    for (int i = 0; i < 7; i++) {
      without[i] = timed(classpath, null, probeArgs);
      noOp[i] = timed(classpath, noOpAgent, probeArgs);
      with[i] = timed(classpath, agent, probeArgs);
    }
    long wallWithout = median(without, 0);
    long wallWith = median(with, 0);
    long cpuWithout = median(without, 1);
    long cpuWith = median(with, 1);
    System.out.printf("| %s | %d ms | %d ms | %d ms | %+d ms | %d ms | %d ms | %d ms | %+d ms |%n", label, wallWithout, median(noOp, 0),
        wallWith, wallWith - wallWithout, cpuWithout, median(noOp, 1), cpuWith, cpuWith - cpuWithout);
  }

  /** Wall and CPU milliseconds of one {@link StartupProbe} JVM. */
  private static long[] timed(String classpath, String agent, List<String> probeArgs) throws IOException, InterruptedException {
    List<String> command = java(classpath, agent);
    command.add(StartupProbe.class.getName());
    command.addAll(probeArgs);
    long start = System.nanoTime();
    String out = run(command);
    long wall = (System.nanoTime() - start) / 1_000_000;
    Matcher m = CPU.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no CPU time from the probe: " + out);
    }
    return new long[] {wall, Long.parseLong(m.group(1))};
  }

  private static long median(long[][] results, int index) {
    long[] values = Arrays.stream(results).mapToLong(r -> r[index]).sorted().toArray();
    return values[values.length / 2];
  }

  private static List<String> java(String classpath, String agent) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    if (agent != null) {
      command.add(agent);
    }
    command.addAll(List.of("-cp", classpath));
    return command;
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("exit " + p.exitValue() + ": " + command + "\n" + out);
    }
    return out;
  }

  private static double median(List<double[]> results, int index) {
    double[] values = results.stream().mapToDouble(r -> r[index]).sorted().toArray();
    return values[values.length / 2];
  }
}
