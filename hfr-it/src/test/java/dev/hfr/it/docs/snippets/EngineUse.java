package dev.hfr.it.docs.snippets;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.CommittedWrite;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.approval.ApprovalDecision;
import dev.hfr.runtime.approval.ApprovalRequest;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.telemetry.DecisionLog;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The engine as docs/ENGINE.md shows it being used, compiled by the build so every type and method the page
 * names is real; the application's parts it names (a ticket system, an approval desk, the tools, the agent) are
 * the interfaces below.
 */
final class EngineUse {

  /** Where escalations go in the page's example. */
  interface Tickets {
    void open(EvidenceBundle bundle);
  }

  /** Who approves in the page's example. */
  interface Approvals {
    ApprovalDecision ask(ApprovalRequest request);
  }

  /** An order, as the page's tool returns it. */
  record Order(String id) {}

  /** The page's order tools (in an application: the generated proxy). */
  interface OrderTools {
    Order createOrder(String sku, int quantity);
  }

  /** The page's booking tools (in an application: the generated proxy). */
  interface BookingTools {
    String book(String guest, String date);
  }

  /** The page's agent. */
  interface Agent {
    void run(String taskId);
  }

  private EngineUse() {}

  static Hfr usingIt(MeterRegistry prometheusRegistry, Tickets tickets, Approvals approvals, OrderTools orders) {
    // tag::using-it[]
    Hfr hfr = Hfr.builder()
        .config(HfrConfigLoader.load(Path.of("hfr.yaml")))   // optional: §5.2 YAML, per tenant / per tool
        .meterRegistry(prometheusRegistry)                    // default: SimpleMeterRegistry
        .escalationHandler(bundle -> tickets.open(bundle))    // default: record only (every escalation is also in hfr.inbox())
        .approvalGate(request -> approvals.ask(request))      // default: ask in hfr.inbox(), never blocking (docs/INBOX.md)
        .build();                                             // also runs crash resume on the ledger

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-42")
            .criticality(Criticality.Level.HIGH).deadline(Duration.ofSeconds(30)).build())) {
      Order o = orders.createOrder("sku-1", 2);               // a generated proxy joins the task
      TaskReport report = task.report();                      // SR/CSR/SCR inputs + process metrics
      ToolOutcome last = task.lastOutcome();                  // degraded=true is visible here
    }
    // end::using-it[]
    return hfr;
  }

  static Hfr decisionLog(MeterRegistry registry) {
    // tag::decision-log[]
    DecisionLog log = DecisionLog.toFile(Path.of("/var/log/app/hfr-decisions.jsonl"))
        .maxFileBytes(64L << 20).keepFiles(5)   // the defaults: roll over at 64 MiB, keep .1 .. .5
        .meterRegistry(registry).build();       // harness.decision.events.dropped
    Hfr hfr = Hfr.builder().decisionSink(log).build();   // the engine does not close a sink you pass: close the log yourself
    // end::decision-log[]
    return hfr;
  }

  static void namedStep(Hfr hfr, BookingTools bookings) {
    // tag::named-step[]
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "trip-7").build());
         StepScope step = task.step("book-hotel")) {        // writes on this thread are keyed by "book-hotel"
      bookings.book("ann", "2026-12-01");
    }
    // end::named-step[]
  }

  static Hfr resume(Agent agent) {
    // tag::resume[]
    Hfr hfr = Hfr.builder().build();                  // marks the dead process's PREPARED writes UNKNOWN
    for (PendingTask p : hfr.resumePending()) {       // tasks opened by another engine and never closed
      try (TaskScope task = hfr.openTask(p.spec())) { // same tenant and id, the saved spec
        agent.run(p.taskId());
      }
    }
    // end::resume[]
    return hfr;
  }

  static void compensation(Hfr hfr, BookingTools bookings) {
    // tag::compensation[]
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "trip-1").build())) {
      bookings.book("ann", "2026-12-01");                     // committed, remembered by the task
      List<CommittedWrite> writes = task.committedWrites();    // tool, step, ledger key, state, compensable
      task.compensate(writes.get(0).ledgerKey());              // one write, or task.compensateAll(): the last first
    }
    // end::compensation[]
  }
}
