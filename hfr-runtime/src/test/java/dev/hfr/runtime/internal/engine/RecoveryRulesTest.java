package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.policy.PolicySource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.approval.ApprovalDecision;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.degrade.Compressible;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.verify.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@DisplayName("The controller's recovery rules")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class RecoveryRulesTest {

  private final Fixtures f = new Fixtures();

  @Nested
  @DisplayName("for unclassified failures (conservative by risk)")
  class Unclassified {

    @Test
    @DisplayName("probes a read once, then stops")
    void readProbesOnce() {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(new IllegalStateException("weird"));
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(Fixtures.read("search"), tool));
      assertThat(tool.methodCalls).isEqualTo(2);
      assertThat(e.outcome().errorType()).isEqualTo(Fault.UNCLASSIFIED);
    }

    @Test
    @DisplayName("reconciles a write before anything else and resends only when the write is absent")
    void writeReconcilesFirst() {
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").fails(new IllegalStateException("weird")).returns("order-1")
          .reconcileFindsNothing();
      assertThat(f.engine().execute(Fixtures.queryableWrite(), tool)).isEqualTo("order-1");
      assertThat(tool.reconcileCalls).isEqualTo(1);
      assertThat(tool.methodCalls).isEqualTo(2);
      assertThat(f.sink.actions()).containsExactly(Action.RECONCILE, Action.RECONCILE, Action.RETRY);
    }

    @Test
    @DisplayName("escalates at HIGH criticality without another attempt")
    void highCriticalityEscalates() {
      ToolDescriptor d = Fixtures.readBuilder("search").criticality(Criticality.Level.HIGH).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(new IllegalStateException("weird"));
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(d, tool));
      assertThat(tool.methodCalls).isEqualTo(1);
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    }
  }

  @Nested
  @DisplayName("for writes with an unknown outcome")
  class UnknownWrites {

    @Test
    @DisplayName("resend an R2 under the same key only after reconciliation found it absent")
    void reconciledAbsentIsResent() {
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").fails(Fixtures.timeout()).returns("order-1")
          .reconcileFindsNothing();
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        assertThat(hfr.execute(Fixtures.queryableWrite(), tool)).isEqualTo("order-1");
      }
      assertThat(tool.methodCalls).isEqualTo(2);
      String key = IdempotencyKeys.key("acme", "t", "Orders.createOrder", List.of("sku"), 0);
      assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    }

    @Test
    @DisplayName("escalate when reconciliation itself fails, leaving the record UNKNOWN and counted as unverified")
    void reconcileFailureEscalates() {
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").fails(Fixtures.timeout()).returns("order-2")
          .reconcileFails(new java.io.IOException("db down"));
      Hfr hfr = f.engine();
      TaskReport report;
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.queryableWrite(), tool));
        assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
        assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
        assertThat(e.outcome().sideEffect()).isTrue();
        assertThat(e.outcome().retryable()).isFalse();
        assertThat(e.outcome().verificationRequired()).isTrue();
        report = task.report();
      }
      assertThat(tool.methodCalls).isEqualTo(1);
      String key = IdempotencyKeys.key("acme", "t", "Orders.createOrder", List.of("sku"), 0);
      assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.UNKNOWN);
      assertThat(report.unverifiedSideEffects()).isEqualTo(1);
      assertThat(report.escalated()).isEqualTo(1);
      assertThat(report.safeCompletion()).isTrue();
      assertThat(f.escalations.drain()).singleElement()
          .satisfies(b -> assertThat(b.ledgerState()).isEqualTo("UNKNOWN"));
    }

    @Test
    @DisplayName("after a crash, a re-run of the task reconciles the abandoned write instead of repeating it")
    void crashResume() {
      String key = IdempotencyKeys.key("acme", "t", "Orders.createOrder", List.of("sku"), 0);
      f.ledger.prepare("acme", key, "Orders.createOrder", IdempotencyKeys.argsHash(List.of("sku")));
      Hfr restarted = f.engine();   // build() runs resumePending()
      assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.UNKNOWN);

      ScriptedTool<String> tool = new ScriptedTool<String>("sku").returns("order-2").reconcileFinds("order-1");
      try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "t").build())) {
        assertThat(restarted.execute(Fixtures.queryableWrite(), tool)).isEqualTo("order-1");
      }
      assertThat(tool.methodCalls).isZero();
      assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.RECONCILED_COMMITTED);
    }

    @Test
    @DisplayName("never execute a write the ledger already holds as committed")
    void committedIsNotRepeated() {
      Hfr hfr = f.engine();
      ScriptedTool<String> first = new ScriptedTool<String>("sku").returns("order-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(Fixtures.queryableWrite(), first);
      }
      ScriptedTool<String> rerun = new ScriptedTool<String>("sku").returns("order-2").reconcileFinds("order-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        assertThat(hfr.execute(Fixtures.queryableWrite(), rerun)).isEqualTo("order-1");
        assertThat(task.lastOutcome().reason()).isEqualTo(Reason.ALREADY_COMMITTED.code());
      }
      assertThat(rerun.methodCalls).isZero();
    }
  }

  @Nested
  @DisplayName("for approvals")
  class Approvals {

    private final ToolDescriptor deploy = ToolDescriptor.builder("com.acme.Ops", "deploy", Risk.R2).parameters("service")
        .reconcile("deployed").requiresApproval(true).resultType(String.class).build();

    @Test
    @DisplayName("treat a gate's denial as a policy refusal (T8): the tool is not called, the call is escalated")
    void denialIsT8() {
      ScriptedTool<String> tool = new ScriptedTool<String>("billing").returns("deployed");
      Hfr hfr = f.builder().approvalGate(dev.hfr.runtime.approval.ApprovalGate.denyAll()).build();
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(deploy, tool));
      assertThat(tool.methodCalls).isZero();
      assertThat(e.outcome().errorType()).isEqualTo(Fault.T8);
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
      assertThat(e.outcome().reason()).isEqualTo(Reason.APPROVAL_DENIED.code());
    }

    @Test
    @DisplayName("run the call once approved")
    void approvedRuns() {
      Hfr hfr = f.builder().approvalGate(r -> ApprovalDecision.approve("oncall")).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("billing").returns("deployed");
      assertThat(hfr.execute(deploy, tool)).isEqualTo("deployed");
    }
  }

  @Nested
  @DisplayName("for verification")
  class Verification {

    @Test
    @DisplayName("retries a read whose result was rejected, when the rejection brings new evidence")
    void retriesWithNewEvidence() {
      int[] n = {0};
      ToolDescriptor d = Fixtures.readBuilder("search").verify(VerifyLevel.V1,
          (String r) -> ++n[0] == 1 ? Verdict.reject("empty", Map.of("hits", "0")) : Verdict.accept()).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("q").returns("").returns("hits");
      assertThat(f.engine().execute(d, tool)).isEqualTo("hits");
      assertThat(f.sink.events).singleElement().satisfies(ev -> {
        assertThat(ev.fault()).isEqualTo(Fault.V1);
        assertThat(ev.verifierReason()).isEqualTo("empty");
        assertThat(ev.action()).isEqualTo(Action.RETRY);
      });
    }

    @Test
    @DisplayName("stops and asks for a replan when the same rejection repeats without new evidence")
    void replansOnTheSameRejection() {
      ToolDescriptor d = Fixtures.readBuilder("search").verify(VerifyLevel.V1, (String r) -> Verdict.reject("empty")).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("q").returns("");
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(d, tool));
        assertThat(e.outcome().errorType()).isEqualTo(Fault.V1);
        assertThat(task.replanRequested()).isTrue();
      }
      assertThat(tool.methodCalls).isEqualTo(2);
      assertThat(f.sink.actions()).containsExactly(Action.RETRY, Action.REPLAN);
    }

    @Test
    @DisplayName("rejects a result of the wrong type or null at V0")
    void transportCheck() {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").returns(null);
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(Fixtures.read("search"), tool));
      assertThat(e.outcome().errorType()).isEqualTo(Fault.V1);
      assertThat(f.registry.get("harness.verification.failures").tag("level", "V0").tag("reason", "null_result").counter()
          .count()).isGreaterThan(0);
    }

    @Test
    @DisplayName("does not accept a result below the quality floor; degrades instead when a rung is allowed")
    void qualityFloor() {
      ToolDescriptor d = ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("p").retry(Fixtures.FAST)
          .resultType(String.class).verify(VerifyLevel.V1, (String r) -> Verdict.accept(r.equals("good") ? 0.95 : 0.5))
          .degradeTo("completeWithBackup", DegradeLevel.L2, Risk.R0).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("p").returns("meh").rungReturns(0, "good");
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").qualityFloor(0.9).build())) {
        assertThat(hfr.execute(d, tool)).isEqualTo("good");
        assertThat(task.lastOutcome().degraded()).isTrue();
      }
      assertThat(f.sink.events).singleElement().satisfies(ev -> assertThat(ev.reason()).isEqualTo(Reason.QUALITY_BELOW_FLOOR));
    }
  }

  @Nested
  @DisplayName("for context overflow (T6)")
  class ContextOverflow {

    final class Prompt extends ScriptedTool<String> implements Compressible {
      int compressions;
      final boolean canShrink;

      Prompt(boolean canShrink) {
        super("long prompt");
        this.canShrink = canShrink;
      }

      @Override
      public boolean compressContext(int round) {
        compressions++;
        return canShrink;
      }
    }

    private final RuntimeException overflow = Fixtures.http(400,
        "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"maximum context length is 8192 tokens\"}}");

    @Test
    @DisplayName("compresses, then resends")
    void compressesThenRetries() {
      Prompt p = new Prompt(true);
      p.fails(overflow).returns("answer");
      assertThat(f.engine().execute(Fixtures.read("complete"), p)).isEqualTo("answer");
      assertThat(p.compressions).isEqualTo(1);
      assertThat(f.sink.actions()).containsExactly(Action.COMPRESS, Action.RETRY);
    }

    @Test
    @DisplayName("never resends an uncompressible context unchanged")
    void neverResendsUnchanged() {
      Prompt p = new Prompt(false);
      p.fails(overflow).returns("answer");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(Fixtures.read("complete"), p));
      assertThat(p.methodCalls).isEqualTo(1);
      assertThat(e.outcome().reason()).isEqualTo(Reason.CONTEXT_NOT_COMPRESSIBLE.code());
    }
  }

  @Nested
  @DisplayName("for budgets, limits and deadlines")
  class Budgets {

    @Test
    @DisplayName("waits at least the Retry-After of a 429")
    void honoursRetryAfter() {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(Fixtures.http(429, "retry-after", "2", "slow down"))
          .returns("ok");
      long before = f.time.nanoTime();
      assertThat(f.builder().build().execute(Fixtures.read("search"), tool)).isEqualTo("ok");
      assertThat(f.time.nanoTime() - before).isGreaterThanOrEqualTo(Duration.ofSeconds(2).toNanos());
      assertThat(f.sink.events).singleElement().satisfies(ev -> {
        assertThat(ev.fault()).isEqualTo(Fault.T2);
        assertThat(ev.delayMillis()).isGreaterThanOrEqualTo(2000);
      });
    }

    @Test
    @DisplayName("does not retry when the retry could not finish before the task's deadline")
    void deadline() {
      ScriptedTool<String> slow = new ScriptedTool<String>("q") {
        @Override
        public String proceed(String key) throws Exception {
          f.time.advance(Duration.ofMillis(100).toNanos());
          return super.proceed(key);
        }
      };
      slow.fails(Fixtures.unavailable()).returns("ok");
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").deadline(Duration.ofMillis(150)).build())) {
        ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), slow));
        assertThat(e.outcome().reason()).isEqualTo(Reason.DEADLINE.code());
      }
      assertThat(slow.methodCalls).isEqualTo(1);
    }

    @Test
    @DisplayName("detects a repeated action (the same tool too often in a row) and asks for a replan")
    void repeatedAction() {
      Hfr hfr = f.engine();
      ToolDescriptor search = Fixtures.read("search");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").limits(TaskLimits.builder().maxSameToolCalls(3).build()).build())) {
        for (int i = 0; i < 3; i++) {
          hfr.execute(search, new ScriptedTool<String>("q").returns("hits"));
        }
        ScriptedTool<String> fourth = new ScriptedTool<String>("q").returns("hits");
        ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(search, fourth));
        assertThat(e.outcome().reason()).isEqualTo(Reason.REPEATED_ACTION.code());
        assertThat(fourth.methodCalls).isZero();
        assertThat(task.replanRequested()).isTrue();
        assertThat(task.report().repeatedActions()).isEqualTo(1);
      }
    }

    @Test
    @DisplayName("stops a task's retries at its budget B_t")
    void taskBudget() {
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").limits(TaskLimits.builder().maxRetries(2).build()).build())) {
        ScriptedTool<String> a = new ScriptedTool<String>("a").failsTimes(2, Fixtures.unavailable()).returns("ok");
        assertThat(hfr.execute(Fixtures.read("search"), a)).isEqualTo("ok");
        ScriptedTool<String> b = new ScriptedTool<String>("b").fails(Fixtures.unavailable()).returns("ok");
        ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("other"), b));
        assertThat(e.outcome().reason()).isEqualTo(Reason.TASK_BUDGET_EXHAUSTED.code());
        assertThat(task.report().retryCount()).isEqualTo(2);
      }
      assertThat(f.registry.get("harness.retry.budget.exhausted").tag("budget", "task_budget_exhausted").counter().count())
          .isEqualTo(1.0);
    }

    @Test
    @DisplayName("escalates with a suggestion when the only rung left needs a human at this criticality")
    void highCriticalityRungNeedsAHuman() {
      ToolDescriptor d = ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("p").retry(Fixtures.FAST)
          .criticality(Criticality.Level.HIGH).resultType(String.class)
          .degradeTo("templateAnswer", DegradeLevel.L4, Risk.R0).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("p").fails(Fixtures.overloaded()).rungReturns(0, "template");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(d, tool));
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
      assertThat(tool.rungCalls[0]).isZero();
      assertThat(f.escalations.drain()).singleElement().satisfies(b -> assertThat(b.suggestion()).contains("templateAnswer", "L4"));
    }
  }

  @Nested
  @DisplayName("when the controller itself fails (§4.1)")
  class ControllerFailure {

    private final PolicySource broken = new PolicySource() {
      @Override
      public CallPolicy policy(String tenant, ToolDescriptor tool, Criticality.Level criticality) {
        throw new IllegalStateException("policy store unreachable");
      }

      @Override
      public TaskLimits taskLimits(String tenant) {
        return TaskLimits.defaults();
      }
    };

    @Test
    @DisplayName("fails open for a read: the tool is called as if HFR were absent")
    void failsOpenForReads() {
      Hfr hfr = f.builder().policies(broken).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("q").returns("hits");
      assertThat(hfr.execute(Fixtures.read("search"), tool)).isEqualTo("hits");
      assertThat(tool.methodCalls).isEqualTo(1);
      assertThat(f.registry.get("harness.controller.failures").tag("fallback", "open").counter().count()).isEqualTo(1.0);
    }

    @Test
    @DisplayName("fails closed for a write: no attempt, a structured failure")
    void failsClosedForWrites() {
      Hfr hfr = f.builder().policies(broken).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").returns("order-1");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.queryableWrite(), tool));
      assertThat(tool.methodCalls).isZero();
      assertThat(e.outcome().reason()).isEqualTo(Reason.CONTROLLER_FAILURE.code());
    }

    @Test
    @DisplayName("fails closed when the ledger breaks after a write returned: escalated, never resent")
    void ledgerOutageAfterTheWrite() {
      Hfr hfr = f.builder().ledger(new FailingTransitionsLedger(f.ledger)).build();
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").returns("order-1");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.queryableWrite(), tool));
      assertThat(tool.methodCalls).isEqualTo(1);
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
      assertThat(e.outcome().reason()).isEqualTo(Reason.CONTROLLER_FAILURE.code());
      assertThat(e.getSuppressed()).hasSize(1);
      assertThat(f.registry.get("harness.controller.failures").tag("fallback", "closed").counter().count()).isEqualTo(1.0);
    }
  }

  @Nested
  @DisplayName("as configured by ablation features")
  class Ablations {

    @Test
    @DisplayName("NoRetry makes exactly one attempt")
    void noRetry() {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("ok");
      catchThrowableOfType(ToolCallException.class, () -> f.engine(HfrFeatures.noRetry()).execute(Fixtures.read("search"), tool));
      assertThat(tool.methodCalls).isEqualTo(1);
    }

    @Test
    @DisplayName("FixedRetry resends blindly, even an R2 write after a timeout (the unsafe baseline HFR is measured against)")
    void fixedRetryIsBlind() {
      ScriptedTool<String> tool = new ScriptedTool<String>("sku").failsTimes(2, Fixtures.timeout()).returns("order")
          .reconcileFinds("order");
      assertThat(f.engine(HfrFeatures.fixedRetry(3)).execute(Fixtures.queryableWrite(), tool)).isEqualTo("order");
      assertThat(tool.methodCalls).isEqualTo(3);
      assertThat(tool.reconcileCalls).isZero();
      assertThat(f.sink.events).extracting(DecisionEvent::delayMillis).containsOnly(100L);
    }

    @Test
    @DisplayName("DegradeOnly goes down the ladder without retrying")
    void degradeOnly() {
      ScriptedTool<String> tool = new ScriptedTool<String>("p").fails(Fixtures.unavailable()).rungReturns(0, "backup");
      assertThat(f.engine(HfrFeatures.degradeOnly()).execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), tool))
          .isEqualTo("backup");
      assertThat(tool.methodCalls).isEqualTo(1);
    }
  }
}
