package dev.hfr.samples.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM ({@link KillWorker}, default settings but task starts checkpointed at open) is killed with SIGKILL at random moments of
 * multi-step tasks with concurrent writes, restarted, and resumes the tasks {@code resumePending()}
 * returns — never re-running the job's list — then starts the job's tasks it never started; a real order
 * service on 127.0.0.1 counts what happened. Every order and every charge exists exactly once, every task
 * ends finished or escalated, every task a killed run left unfinished is among the next run's pending
 * tasks, and a restarted worker acts on the killed run's unfinished writes within the default lease TTL
 * (20 s) + 2 s of its start.
 */
@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("Kill and resume: SIGKILL, restart with default settings, resume what resumePending returns — nothing lost, nothing twice")
class KillResumeTest {

  static final int TASKS = 120;
  static final long DEFAULT_LEASE_MS = 20_000;

  @TempDir Path tmp;

  @Test
  @DisplayName("embedded ledger: 0 duplicates, 0 lost, every task finished or escalated")
  void embedded() throws Exception {
    killAndResume("embedded", tmp.resolve("ledger").toString(), 3, 21);
  }

  @Test
  @DisplayName("PostgreSQL ledger: 0 duplicates, 0 lost, every task finished or escalated")
  void postgres() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      killAndResume("postgres", pg.getJdbcUrl("postgres", "postgres"), 2, 22);
    }
  }

  private void killAndResume(String backend, String location, int kills, long seed) throws Exception {
    Random random = new Random(seed);
    List<String> rows = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    try (OrderService service = new OrderService(4)) {
      Path log = null;
      for (int run = 1; ; run++) {
        log = tmp.resolve(backend + "-run-" + run + ".log");
        long started = System.nanoTime();
        Process worker = Forked.start(KillWorker.class, log, backend, location, service.uri().toString(), String.valueOf(TASKS),
            tmp.resolve(backend + "-progress").toString());
        logs.add(log);
        boolean kill = run <= kills;
        if (kill) {
          int before = service.writes();
          long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (worker.isAlive() && service.writes() < before + 20 && System.nanoTime() < until) {
            Thread.sleep(5);
          }
          Thread.sleep(random.nextInt(400));
          if (worker.isAlive()) {
            worker.destroyForcibly(); // SIGKILL
            worker.waitFor(10, TimeUnit.SECONDS);
            rows.add(row(backend, run, "killed", log, started, service));
            Thread.sleep(100); // the dead worker's last bytes reach the service
            continue;
          }
        }
        assertThat(worker.waitFor(180, TimeUnit.SECONDS)).as("worker finished; log %s", log).isTrue();
        assertThat(worker.exitValue()).as(Files.readString(log)).isZero();
        rows.add(row(backend, run, "finished", log, started, service));
        break;
      }
      // How each task ended, over all runs (a task may print its end and be killed before it closes: then
      // it is resumed and ends again), how often the job's list started it, and what each restart resumed.
      Map<Integer, String> ends = new TreeMap<>();
      Map<Integer, Integer> startsFromJob = new TreeMap<>();
      int resumedTasks = 0;
      for (int r = 0; r < logs.size(); r++) {
        List<String> lines = Files.readAllLines(logs.get(r));
        Set<Integer> startedHere = new HashSet<>();
        for (String line : lines) {
          String[] f = line.split(" ");
          if (line.startsWith("START ")) {
            startedHere.add(Integer.valueOf(f[1]));
            if (f[2].equals("job")) {
              startsFromJob.merge(Integer.valueOf(f[1]), 1, Integer::sum);
            } else {
              resumedTasks++;
            }
          } else if (line.startsWith("TASK ")) {
            ends.put(Integer.valueOf(f[1]), line.substring(line.indexOf(' ', 5) + 1));
            startedHere.remove(Integer.valueOf(f[1]));
          }
        }
        if (r + 1 < logs.size()) {
          Set<Integer> pendingNext = pendingOf(Files.readAllLines(logs.get(r + 1)));
          assertThat(pendingNext).as("run %d's cut-off tasks are resumed by run %d", r + 1, r + 2).containsAll(startedHere);
        }
      }
      Map<String, Integer> orders = service.orders();
      Map<String, Integer> charges = service.charges();
      long duplicates = orders.values().stream().filter(n -> n > 1).count() + charges.values().stream().filter(n -> n > 1).count();
      int lost = 0;
      for (int i = 0; i < TASKS; i++) {
        lost += (orders.containsKey(OrderTasks.ref(i)) ? 0 : 1) + (charges.containsKey(OrderTasks.ref(i)) ? 0 : 1);
      }
      String summary = "kill/resume [" + backend + "] tasks=" + TASKS + " duplicates=" + duplicates + " lost=" + lost
          + " resumed-tasks=" + resumedTasks + " task ends=" + tally(ends) + "\n  " + String.join("\n  ", rows);
      System.out.println(summary);
      assertThat(duplicates).as(summary).isZero();
      assertThat(lost).as(summary).isZero();
      assertThat(ends).as(summary).hasSize(TASKS);
      assertThat(ends.values()).as("every task finished or escalated: " + summary).allMatch(k -> k.equals("ok") || k.startsWith("ESCALATED"));
      assertThat(startsFromJob.values()).as("no task is started twice from the job's list: " + summary).allMatch(n -> n == 1);
      assertThat(resumedTasks).as("the restarts resumed the killed runs' tasks: " + summary).isPositive();
      for (String r : rows) {
        if (r.contains("first-resumed-call=") && !r.contains("first-resumed-call=-")) {
          long ms = Long.parseLong(r.replaceAll(".*first-resumed-call=(\\d+).*", "$1"));
          assertThat(ms).as("restart to first resumed call: " + r).isLessThanOrEqualTo(DEFAULT_LEASE_MS + 2_000);
        }
      }
    }
  }

  /** The task ids a run's {@code PENDING} line lists. */
  private static Set<Integer> pendingOf(List<String> lines) {
    String line = lines.stream().filter(l -> l.startsWith("PENDING")).findFirst().orElseThrow();
    Set<Integer> ids = new HashSet<>();
    for (String id : line.substring("PENDING".length(), line.indexOf('|')).trim().split(" ")) {
      if (!id.isEmpty()) {
        ids.add(Integer.valueOf(id));
      }
    }
    return ids;
  }

  private static Map<String, Integer> tally(Map<Integer, String> ends) {
    Map<String, Integer> out = new TreeMap<>();
    ends.values().forEach(v -> out.merge(v, 1, Integer::sum));
    return out;
  }

  private static String row(String backend, int run, String how, Path log, long started, OrderService service) throws Exception {
    List<String> lines = Files.readAllLines(log);
    String resumed = lines.stream().filter(l -> l.startsWith("PENDING")).findFirst().orElse("PENDING -");
    String first = lines.stream().filter(l -> l.startsWith("FIRST_RESUMED_CALL")).map(l -> l.split(" ")[1]).findFirst().orElse("-");
    long tasksDone = lines.stream().filter(l -> l.startsWith("TASK ")).count();
    return String.format("run %d %s after %d ms: %s first-resumed-call=%s tasks-ended-this-run=%d service-writes-so-far=%d",
        run, how, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), resumed, first, tasksDone, service.writes());
  }
}
