package dev.hfr.samples.ownership;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One worker JVM of the PostgreSQL race: the engine with default settings on the shared ledger, running
 * tasks 0..n-1 once the test says go. Prints {@code OUTCOME <reason> <count>} per reason.
 */
public final class RaceWorker {

  private RaceWorker() {}

  /** Arguments: JDBC URL, the order service's URI, number of tasks, the go file. */
  public static void main(String[] args) throws Exception {
    int tasks = Integer.parseInt(args[2]);
    Path go = Path.of(args[3]);
    try (HikariDataSource ds = OneOwnerPerWriteTest.pool(args[0], OneOwnerPerWriteTest.THREADS);
        PostgresLedger ledger = PostgresLedger.create(ds);
        Hfr hfr = Hfr.builder().ledger(ledger).config(OrderTasks.config()).decisionSink(e -> { }).build()) {
      OrderDesk desk = OrderDesk_Recovering.create(hfr, URI.create(args[1]));
      System.out.println("READY");
      while (!Files.exists(go)) {
        Thread.sleep(5);
      }
      Map<String, Integer> outcomes = OrderTasks.runAll(hfr, desk, tasks, OneOwnerPerWriteTest.THREADS);
      outcomes.forEach((reason, n) -> System.out.println("OUTCOME " + reason + " " + n));
    }
    System.exit(0);
  }

  static Map<String, Integer> outcomes(List<String> log) {
    Map<String, Integer> out = new TreeMap<>();
    for (String line : log) {
      if (line.startsWith("OUTCOME ")) {
        String[] p = line.split(" ");
        out.put(p[1], Integer.parseInt(p[2]));
      }
    }
    return out;
  }
}
