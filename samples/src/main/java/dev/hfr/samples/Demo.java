package dev.hfr.samples;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.registry.ToolRegistry;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import dev.hfr.samples.services.InjectedFault;
import dev.hfr.samples.services.ShopServices;
import dev.hfr.samples.shop.DaggerShopComponent;
import dev.hfr.samples.shop.Order;
import dev.hfr.samples.shop.ShopApi;
import dev.hfr.samples.shop.ShopTools;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * The HFR demo: a shopping agent's tools, generated into recovering proxies at compile time and wired by
 * Dagger, call real HTTP services on 127.0.0.1 that inject faults on the wire — a 503, a withdrawn
 * endpoint, a rate limit with Retry-After, an order committed whose answer never arrives, a failing
 * e-mail service. The demo prints what HFR did with each, the task report, a Prometheus scrape of the
 * meters and where the decision events were written.
 *
 * <p>Run it with {@code mvn -q -pl samples -am package -Pdemo -Dmaven.test.skip=true}.
 */
public final class Demo {

  private static final PrintStream OUT = System.out;
  /** How long the tools wait for one HTTP answer. */
  private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(1000);

  private final ShopServices services;
  private int logSeen;

  private Demo(ShopServices services) {
    this.services = services;
  }

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory("hfr-demo-");
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (ShopServices services = ShopServices.start();
        EmbeddedFileLedger ledger = EmbeddedFileLedger.open(work.resolve("ledger"));
        JsonLinesDecisionSink decisions = JsonLinesDecisionSink.open(work.resolve("hfr-decisions.jsonl"));
        Hfr hfr = Hfr.builder().meterRegistry(meters).ledger(ledger).decisionSink(decisions).seed(42).build()) {
      ShopTools tools = DaggerShopComponent.factory()
          .create(hfr, new ShopApi(services.baseUri(), CLIENT_TIMEOUT))
          .shopTools();
      OUT.println("HFR demo: the shop's services listen on " + services.baseUri() + ".");
      OUT.println("Dagger injected ShopTools as " + tools.getClass().getName() + " (generated at compile time).");
      OUT.println();
      OUT.println("The tool registry (generated catalogs, found through ServiceLoader):");
      OUT.print(ToolRegistry.load().render().indent(2));

      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "checkout-42").build())) {
        new Demo(services).run(tools, task);
        printReport(task.report());
      }
      OUT.println();
      OUT.println("Prometheus scrape of the HFR meters (histogram buckets left out):");
      meters.scrape().lines()
          .filter(l -> l.startsWith("harness_") && !l.contains("_bucket"))
          .forEach(l -> OUT.println("  " + l));
      OUT.println();
      OUT.println("Every decision was written as a JSON line to " + decisions.file().toAbsolutePath());
      OUT.println("The idempotency ledger is in " + work.resolve("ledger").toAbsolutePath());
    }
  }

  private void run(ShopTools tools, TaskScope task) throws Exception {
    services.plan("GET /search", InjectedFault.unavailable());
    call(task, "1. search(\"lamp\") — the search service answers 503 once",
        () -> tools.search("lamp"));

    services.plan("GET /search", InjectedFault.notImplemented());
    call(task, "2. search(\"desk\") — the search endpoint is withdrawn (501): degrade to the mirror (L2)",
        () -> tools.search("desk"));

    services.plan("GET /search", InjectedFault.notImplemented());
    services.plan("GET /mirror/search", InjectedFault.notImplemented());
    call(task, "3. search(\"chair\") — search and mirror both withdrawn: the ladder ends at the cache (L4)",
        () -> tools.search("chair"));

    services.plan("POST /orders", InjectedFault.commitThenStall(CLIENT_TIMEOUT.multipliedBy(2)));
    Order order = (Order) call(task,
        "4. createOrder(\"cart-42\", \"sku-lamp\", 1) — the order commits but its answer never arrives in time",
        () -> tools.createOrder("cart-42", "sku-lamp", 1));
    OUT.println("   orders committed by the service: " + services.committedOrders() + " (one, not two)");

    services.plan("POST /payments", InjectedFault.rateLimited(1));
    String orderId = order != null ? order.id() : "ord-unknown";
    call(task, "5. charge(\"" + orderId + "\", 2900, null) — the payment service is rate limited (429, Retry-After: 1)",
        () -> tools.charge(orderId, 2900, null));
    OUT.println("   payments committed by the service: " + services.committedPayments()
        + " (the retry carried the same Idempotency-Key)");

    services.plan("POST /emails", InjectedFault.unavailable());
    call(task, "6. sendEmail(\"ana@example.com\", \"Your order\") — the mail service answers 503",
        () -> tools.sendEmail("ana@example.com", "Your order"));
    OUT.println("   not retried: an e-mail cannot be unsent, so HFR stops rather than risk sending it twice");
  }

  /** Runs one tool call and prints, in plain words, what the services saw and what HFR did. */
  private Object call(TaskScope task, String title, Callable<Object> call) throws Exception {
    OUT.println();
    OUT.println(title);
    Object result = null;
    ToolOutcome outcome;
    try {
      result = call.call();
      outcome = task.lastOutcome();
      OUT.println("   result: " + result);
    } catch (ToolCallException e) {
      outcome = e.outcome();
      OUT.println("   failed: " + e.getMessage());
    }
    List<String> log = services.log();
    for (String line : log.subList(logSeen, log.size())) {
      OUT.println("   service: " + line);
    }
    logSeen = log.size();
    OUT.println("   HFR: " + describe(outcome));
    return result;
  }

  private static String describe(ToolOutcome o) {
    if (o == null) {
      return "no outcome recorded";
    }
    StringBuilder s = new StringBuilder(o.status().name().toLowerCase(java.util.Locale.ROOT))
        .append(" after ").append(o.attempts()).append(o.attempts() == 1 ? " attempt" : " attempts");
    if (o.errorType() != null) {
      s.append("; last failure class ").append(o.errorType());
    }
    if (o.degraded()) {
      s.append("; degraded to ").append(o.degradeLevel()).append(" (result marked degraded)");
    }
    s.append("; reason ").append(o.reason());
    if (o.sideEffect()) {
      // ToolOutcome.sideEffect() means "may have changed the outside world", not "committed".
      s.append(o.status() == ToolOutcome.Status.SUCCESS ? "; side effect in place" : "; side effect possible");
    }
    if (o.verificationRequired()) {
      s.append("; still needs verification");
    }
    return s.toString();
  }

  private static void printReport(TaskReport r) {
    OUT.println();
    OUT.println("Task report of acme/checkout-42:");
    OUT.println("  calls " + r.calls() + ": " + r.succeeded() + " succeeded (" + r.degraded() + " degraded), "
        + r.failed() + " failed, " + r.escalated() + " escalated; " + r.attempts() + " attempts in all");
    OUT.println("  duplicate side effects: " + r.duplicateSideEffects()
        + "; safe completion: " + r.safeCompletion());
    OUT.println("  process metrics: " + r.processMetrics().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")));
  }
}
