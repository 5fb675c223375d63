package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.verify.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The configuration keys a user most likely sets, each shown on a running call: the same call is made with
 * the key and without it (or with another value), and what the engine does differs. {@code
 * ConfigKeyCoverageTest} names these tests as the keys' engine-level proof.
 */
@DisplayName("Configuration keys change what a running call does")
class ConfigKeysOnACallTest {

  /** One attempt per call: what a breaker sees is then exactly the calls' outcomes. */
  private static final RetrySpec ONCE = RetrySpec.of(1, 100, 1000, Fault.T1);
  private static final ToolDescriptor FLAKY = Fixtures.readBuilder("flaky").retry(ONCE).build();

  private final Fixtures f = new Fixtures();
  private final List<Object> judged = new CopyOnWriteArrayList<>();

  private Hfr engine(String hfrSection) {
    // the tools here are described by hand, not generated: no registry to check the file's tool names against
    return f.builder().checkConfig(false).config(HfrConfigLoader.parse("hfr:\n" + hfrSection.indent(2), "hfr.yaml"))
        .verificationHook(VerifyLevel.V2, (tool, result) -> {
          judged.add(result);
          return Verdict.accept();
        })
        .build();
  }

  private static void fails(Hfr hfr, ToolDescriptor tool) {
    catchThrowableOfType(ToolCallException.class, () -> hfr.execute(tool, new ScriptedTool<String>("q").fails(Fixtures.unavailable())));
  }

  /** Whether a call that would succeed is let through (false: the breaker stopped it without calling the tool). */
  private static boolean letThrough(Hfr hfr, ToolDescriptor tool) {
    ScriptedTool<String> ok = new ScriptedTool<String>("q").returns("ok");
    ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(tool, ok));
    if (e != null) {
      assertThat(e.outcome().reason()).isEqualTo(Reason.CIRCUIT_OPEN.code());
      assertThat(ok.methodCalls).isZero();
      return false;
    }
    return true;
  }

  private void advanceMillis(long millis) {
    f.time.advance(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  @Nested
  @DisplayName("circuit_breaker")
  class Breaker {

    @Test
    @DisplayName("cooldown_ms: an open breaker stops calls until its cooldown (±20 % jitter) has passed, then lets one through")
    void cooldownMs() {
      Hfr hfr = engine("circuit_breaker:\n  consecutive_failures: 1\n  cooldown_ms: 1000");
      fails(hfr, FLAKY);
      advanceMillis(500);
      assertThat(letThrough(hfr, FLAKY)).as("at 0.5 s").isFalse();
      advanceMillis(1_000);
      assertThat(letThrough(hfr, FLAKY)).as("at 1.5 s").isTrue();

      Hfr longer = new ConfigKeysOnACallTest().engine("circuit_breaker:\n  consecutive_failures: 1\n  cooldown_ms: 60000");
      fails(longer, FLAKY);
      assertThat(letThrough(longer, FLAKY)).isFalse();
    }

    @Test
    @DisplayName("half_open_probes: after the cooldown this many probes must succeed before the breaker closes")
    void halfOpenProbes() {
      for (int probes : new int[] {1, 2}) {
        ConfigKeysOnACallTest t = new ConfigKeysOnACallTest();
        Hfr hfr = t.engine("circuit_breaker:\n  consecutive_failures: 2\n  cooldown_ms: 1000\n  half_open_probes: " + probes);
        fails(hfr, FLAKY);
        fails(hfr, FLAKY);
        t.advanceMillis(1_500);
        fails(hfr, FLAKY); // the first probe call fails: the only one reopens it; one of two may fail
        assertThat(letThrough(hfr, FLAKY)).as("half_open_probes: " + probes).isEqualTo(probes == 2);
      }
    }

    @Test
    @DisplayName("error_rate_threshold and min_calls: half the calls failing trips it once min_calls calls were seen")
    void errorRateAndMinCalls() {
      Hfr hfr = engine("circuit_breaker:\n  consecutive_failures: 100\n  error_rate_threshold: 0.4\n  min_calls: 4");
      for (int i = 0; i < 2; i++) {
        assertThat(letThrough(hfr, FLAKY)).isTrue();
        fails(hfr, FLAKY);
      }
      assertThat(letThrough(hfr, FLAKY)).as("after 2 of 4 calls failed").isFalse();

      ConfigKeysOnACallTest t = new ConfigKeysOnACallTest();
      Hfr patient = t.engine("circuit_breaker:\n  consecutive_failures: 100\n  error_rate_threshold: 0.4\n  min_calls: 20");
      for (int i = 0; i < 2; i++) {
        assertThat(letThrough(patient, FLAKY)).isTrue();
        fails(patient, FLAKY);
      }
      assertThat(letThrough(patient, FLAKY)).as("min_calls 20 not reached").isTrue();
    }

    @Test
    @DisplayName("window_ms: calls older than the window no longer count towards the error rate")
    void windowMs() {
      Hfr hfr = engine("circuit_breaker:\n  consecutive_failures: 100\n  error_rate_threshold: 0.4\n  min_calls: 4\n"
          + "  window_ms: 1000");
      for (int i = 0; i < 2; i++) {
        fails(hfr, FLAKY);
        advanceMillis(2_000);
        assertThat(letThrough(hfr, FLAKY)).isTrue();
        advanceMillis(2_000);
      }
      assertThat(letThrough(hfr, FLAKY)).as("never four calls within one second").isTrue();
    }

    @Test
    @DisplayName("rate_limit_threshold: half the calls answered 429 trips it, the error rate alone would not")
    void rateLimitThreshold() {
      Hfr hfr = engine("circuit_breaker:\n  consecutive_failures: 100\n  error_rate_threshold: 1.0\n"
          + "  rate_limit_threshold: 0.4\n  min_calls: 4");
      for (int i = 0; i < 2; i++) {
        assertThat(letThrough(hfr, FLAKY)).isTrue();
        catchThrowableOfType(ToolCallException.class, () -> hfr.execute(FLAKY,
            new ScriptedTool<String>("q").fails(Fixtures.http(429, "{\"error\":{\"type\":\"rate_limit_error\"}}"))));
      }
      assertThat(letThrough(hfr, FLAKY)).isFalse();
    }

    @Test
    @DisplayName("p95_latency_ms: calls slower than the threshold trip it although every one succeeded")
    void p95LatencyMs() {
      Hfr hfr = engine("circuit_breaker:\n  consecutive_failures: 100\n  p95_latency_ms: 200\n  min_calls: 4");
      ScriptedTool<String> slow = new ScriptedTool<String>("q") {
        @Override
        public String proceed(String key) {
          advanceMillis(500);
          return "slow but fine";
        }
      };
      for (int i = 0; i < 4; i++) {
        assertThat(hfr.execute(FLAKY, slow)).isEqualTo("slow but fine");
      }
      assertThat(letThrough(hfr, FLAKY)).isFalse();
    }
  }

  @Nested
  @DisplayName("limits")
  class Limits {

    private CallRefusedException refused(Hfr hfr, ToolDescriptor tool, ScriptedTool<String> invocation) {
      CallRefusedException e = catchThrowableOfType(CallRefusedException.class, () -> hfr.execute(tool, invocation));
      assertThat(e).isNotNull();
      assertThat(invocation.methodCalls).isZero();
      return e;
    }

    @Test
    @DisplayName("max_tool_calls: 2 — the third call of a task is refused without calling the tool")
    void maxToolCalls() {
      Hfr hfr = engine("limits:\n  max_tool_calls: 2");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(Fixtures.read("a"), new ScriptedTool<String>("q").returns("1"));
        hfr.execute(Fixtures.read("b"), new ScriptedTool<String>("q").returns("2"));
        refused(hfr, Fixtures.read("c"), new ScriptedTool<String>("q").returns("3"));
      }
    }

    @Test
    @DisplayName("max_write_actions: 1 — the second write of a task is refused")
    void maxWriteActions() {
      Hfr hfr = engine("limits:\n  max_write_actions: 1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(Fixtures.queryableWrite(), new ScriptedTool<String>("sku-1").returns("order-1"));
        hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("q").returns("reads still run"));
        refused(hfr, Fixtures.queryableWrite(), new ScriptedTool<String>("sku-2").returns("order-2"));
      }
    }

    @Test
    @DisplayName("max_wall_time_ms: 1000 — a call after the task's second second is refused")
    void maxWallTimeMs() {
      Hfr hfr = engine("limits:\n  max_wall_time_ms: 1000");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("q").returns("in time"));
        advanceMillis(2_000);
        refused(hfr, Fixtures.read("search"), new ScriptedTool<String>("q").returns("too late"));
      }
    }

    @Test
    @DisplayName("max_turns: 2 — the third turn of a task is not allowed")
    void maxTurns() {
      Hfr hfr = engine("limits:\n  max_turns: 2");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        assertThat(task.nextTurn()).isTrue();
        assertThat(task.nextTurn()).isTrue();
        assertThat(task.nextTurn()).isFalse();
      }
    }

    @Test
    @DisplayName("max_cost: 1.0 — once the task has spent more, its next turn is not allowed")
    void maxCost() {
      Hfr hfr = engine("limits:\n  max_cost: 1.0");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        task.recordCost(0.5);
        assertThat(task.nextTurn()).isTrue();
        task.recordCost(1.0);
        assertThat(task.nextTurn()).isFalse();
      }
    }
  }

  @Nested
  @DisplayName("retry conditions")
  class RetryConditions {

    @Test
    @DisplayName("retry_on: [T1] — a read's timeout (T3) is no longer retried; by default it is")
    void retryOn() {
      ScriptedTool<String> narrowed = new ScriptedTool<String>("q").fails(Fixtures.timeout()).returns("hit");
      catchThrowableOfType(ToolCallException.class, () -> engine("retry:\n  retry_on: [T1]").execute(Fixtures.read("search"), narrowed));
      assertThat(narrowed.methodCalls).isEqualTo(1);

      ScriptedTool<String> byDefault = new ScriptedTool<String>("q").fails(Fixtures.timeout()).returns("hit");
      assertThat(new ConfigKeysOnACallTest().engine("retry:\n  max_attempts_per_step: 4").execute(Fixtures.read("search"), byDefault))
          .isEqualTo("hit");
    }

    @Test
    @DisplayName("same_fault_limit: 6 — with max_attempts_per_step: 6 a steady 503 is tried 6 times; by default 3")
    void sameFaultLimit() {
      ScriptedTool<String> raised = new ScriptedTool<String>("q").fails(Fixtures.unavailable());
      catchThrowableOfType(ToolCallException.class, () -> engine("retry:\n  max_attempts_per_step: 6\n  same_fault_limit: 6")
          .execute(Fixtures.read("search"), raised));
      assertThat(raised.methodCalls).isEqualTo(6);

      ScriptedTool<String> byDefault = new ScriptedTool<String>("q").fails(Fixtures.unavailable());
      ToolCallException stopped = catchThrowableOfType(ToolCallException.class,
          () -> new ConfigKeysOnACallTest().engine("retry:\n  max_attempts_per_step: 6").execute(Fixtures.read("search"), byDefault));
      assertThat(byDefault.methodCalls).isEqualTo(3);
      assertThat(stopped.outcome().reason()).isEqualTo(Reason.SAME_FAULT_REPEATED.code());
    }

    @Test
    @DisplayName("never_retry_on: [T1] — a 503 is no longer retried")
    void neverRetryOn() {
      ScriptedTool<String> never = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hit");
      catchThrowableOfType(ToolCallException.class,
          () -> engine("retry:\n  retry_on: [T2]\n  never_retry_on: [T1]").execute(Fixtures.read("search"), never));
      assertThat(never.methodCalls).isEqualTo(1);

      ScriptedTool<String> byDefault = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hit");
      assertThat(new ConfigKeysOnACallTest().engine("retry:\n  retry_on: [T1, T2]").execute(Fixtures.read("search"), byDefault))
          .isEqualTo("hit");
    }
  }

  @Nested
  @DisplayName("degradation")
  class Degradation {

    /** The primary model keeps answering 503 (retries end on the same fault); rung 0 (L2) and rung 1 (L4) would answer. */
    private ScriptedTool<String> model() {
      return new ScriptedTool<String>("prompt").fails(Fixtures.unavailable()).rungReturns(0, "backup").rungReturns(1, "template");
    }

    @Test
    @DisplayName("allow_auto_degrade: medium: [L1] — a MEDIUM call no longer takes its L2 rung on its own")
    void allowAutoDegrade() {
      ScriptedTool<String> byDefault = model();
      assertThat(engine("degradation:\n  ladder: [L0, L1, L2, L3, L4]")
          .execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), byDefault)).isEqualTo("backup");

      ScriptedTool<String> restricted = model();
      catchThrowableOfType(ToolCallException.class, () -> new ConfigKeysOnACallTest()
          .engine("degradation:\n  allow_auto_degrade:\n    medium: [L1]")
          .execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), restricted));
      assertThat(restricted.rungCalls[0]).isZero();
      assertThat(restricted.rungCalls[1]).isZero();
    }

    @Test
    @DisplayName("require_human_for: medium: [L2] — the L2 rung is not taken automatically any more")
    void requireHumanFor() {
      ScriptedTool<String> model = model();
      catchThrowableOfType(ToolCallException.class, () -> engine("degradation:\n  require_human_for:\n    medium: [L2]")
          .execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), model));
      assertThat(model.rungCalls[0]).isZero();
    }

    @Test
    @DisplayName("quality_floor: medium: 0.9 — a result its verifier rates 0.85 is not accepted; at the default 0.80 it is")
    void qualityFloor() {
      ToolDescriptor rated = Fixtures.readBuilder("rated").retry(ONCE).criticality(Criticality.Level.MEDIUM)
          .verify(VerifyLevel.V1, r -> Verdict.accept(0.85)).build();
      String v1 = "verification:\n  levels:\n    low: V1\n    medium: V1\n    high: V1\n";
      assertThat(engine(v1).execute(rated, new ScriptedTool<String>("q").returns("good enough"))).isEqualTo("good enough");

      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> new ConfigKeysOnACallTest()
          .engine(v1 + "degradation:\n  quality_floor:\n    low: 0.6\n    medium: 0.9\n    high: 0.95")
          .execute(rated, new ScriptedTool<String>("q").returns("good enough")));
      assertThat(e).isNotNull();
    }
  }

  @Nested
  @DisplayName("verification")
  class Verification {

    @Test
    @DisplayName("levels: low: V2 — a LOW tool's result goes to the V2 hook; at V1 it does not")
    void levels() {
      ToolDescriptor low = Fixtures.readBuilder("search").criticality(Criticality.Level.LOW).build();
      engine("verification:\n  levels:\n    low: V1\n    medium: V2\n    high: V2").execute(low, new ScriptedTool<String>("q").returns("a"));
      assertThat(judged).isEmpty();
      engine("verification:\n  levels:\n    low: V2\n    medium: V2\n    high: V2").execute(low, new ScriptedTool<String>("q").returns("b"));
      assertThat(judged).containsExactly("b");
    }

    @Test
    @DisplayName("default_level: V2 — a criticality without its own entry is verified at V2")
    void defaultLevel() {
      ToolDescriptor low = Fixtures.readBuilder("search").criticality(Criticality.Level.LOW).build();
      engine("verification:\n  default_level: V1\n  levels:\n    high: V3").execute(low, new ScriptedTool<String>("q").returns("a"));
      assertThat(judged).isEmpty();
      engine("verification:\n  default_level: V2\n  levels:\n    high: V3").execute(low, new ScriptedTool<String>("q").returns("b"));
      assertThat(judged).containsExactly("b");
    }
  }

  @Nested
  @DisplayName("tools and tenants sections")
  class Sections {

    @Test
    @DisplayName("tools.<tool>.retry: max_attempts_per_step: 1 — that tool's 503 is not retried, another tool's is")
    void toolRetry() {
      Hfr hfr = engine("tools:\n  Search.search:\n    retry:\n      max_attempts_per_step: 1");
      ScriptedTool<String> search = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hit");
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), search));
      assertThat(search.methodCalls).isEqualTo(1);
      ScriptedTool<String> other = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hit");
      assertThat(hfr.execute(Fixtures.read("lookup"), other)).isEqualTo("hit");
    }

    @Test
    @DisplayName("tools.<tool>.criticality: high — the tool no longer degrades to its L4 rung on its own")
    void toolCriticality() {
      ScriptedTool<String> low = new ScriptedTool<String>("p").fails(Fixtures.unavailable()).rungFails(0, Fixtures.unavailable())
          .rungReturns(1, "template");
      assertThat(engine("degradation:\n  ladder: [L0, L1, L2, L3, L4]")
          .execute(Fixtures.modelWithLadder(Criticality.Level.LOW), low)).isEqualTo("template");

      ScriptedTool<String> high = new ScriptedTool<String>("p").fails(Fixtures.unavailable()).rungFails(0, Fixtures.unavailable())
          .rungReturns(1, "template");
      catchThrowableOfType(ToolCallException.class, () -> new ConfigKeysOnACallTest()
          .engine("tools:\n  Llm.complete:\n    criticality: high")
          .execute(Fixtures.modelWithLadder(Criticality.Level.LOW), high));
      assertThat(high.rungCalls[1]).isZero();
    }

    @Test
    @DisplayName("tools.<tool>.verification: level: V2 — that tool's results go to the V2 hook")
    void toolVerification() {
      ToolDescriptor low = Fixtures.readBuilder("search").criticality(Criticality.Level.LOW).build();
      Hfr hfr = engine("verification:\n  levels:\n    low: V1\n    medium: V2\n    high: V2\n"
          + "tools:\n  Search.search:\n    verification:\n      level: V2");
      hfr.execute(low, new ScriptedTool<String>("q").returns("judged"));
      hfr.execute(Fixtures.readBuilder("lookup").criticality(Criticality.Level.LOW).build(), new ScriptedTool<String>("q").returns("not"));
      assertThat(judged).containsExactly("judged");
    }

    @Test
    @DisplayName("tools.<tool>.degradation: allow_auto_degrade: [L1] — that tool keeps off its L2 rung")
    void toolDegradation() {
      ScriptedTool<String> model = new ScriptedTool<String>("p").fails(Fixtures.unavailable()).rungReturns(0, "backup");
      catchThrowableOfType(ToolCallException.class, () -> engine("tools:\n  Llm.complete:\n    degradation:\n"
          + "      allow_auto_degrade: [L1]").execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), model));
      assertThat(model.rungCalls[0]).isZero();
    }

    @Test
    @DisplayName("tenants.<t>.circuit_breaker: consecutive_failures: 1 — one failed call stops that tenant's calls only")
    void tenantBreaker() {
      Hfr hfr = engine("tenants:\n  fragile:\n    circuit_breaker:\n      consecutive_failures: 1");
      for (String tenant : List.of("fragile", "sturdy")) {
        try (TaskScope task = hfr.openTask(TaskSpec.builder(tenant, "t").build())) {
          fails(hfr, FLAKY);
          assertThat(letThrough(hfr, FLAKY)).as(tenant).isEqualTo(tenant.equals("sturdy"));
        }
      }
    }

    @Test
    @DisplayName("tenants.<t>.tools: a tool policy for one tenant (no retry) leaves the other tenants' calls alone")
    void tenantTools() {
      Hfr hfr = engine("tenants:\n  strict:\n    tools:\n      Search.search:\n        retry:\n          max_attempts_per_step: 1");
      for (String tenant : List.of("strict", "relaxed")) {
        ScriptedTool<String> search = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hit");
        try (TaskScope task = hfr.openTask(TaskSpec.builder(tenant, "t").build())) {
          catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), search));
        }
        assertThat(search.methodCalls).as(tenant).isEqualTo(tenant.equals("strict") ? 1 : 2);
      }
    }

    @Test
    @DisplayName("tools.<tool>.timeout_ms and tenants.<t>.timeout_ms: an attempt sleeping 10 s is cut at 100 ms and retried")
    void timeouts() {
      for (String section : List.of("tools:\n  Search.search:\n    timeout_ms: 100",
          "tenants:\n  acme:\n    timeout_ms: 100")) {
        ScriptedTool<String> sleepy = new ScriptedTool<String>("q") {
          @Override
          public String proceed(String key) throws Exception {
            if (methodCalls++ == 0) {
              Thread.sleep(10_000);
            }
            return "second attempt";
          }
        };
        // Real time: the shared timer interrupts on the system clock.
        try (Hfr hfr = Hfr.builder().ledger(f.ledger).decisionSink(f.sink).seed(1).checkConfig(false)
            .config(HfrConfigLoader.parse("hfr:\n" + section.indent(2), "hfr.yaml")).build();
            TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
          long start = System.nanoTime();
          assertThat(hfr.execute(Fixtures.read("search"), sleepy)).isEqualTo("second attempt");
          assertThat(Duration.ofNanos(System.nanoTime() - start)).as(section).isLessThan(Duration.ofSeconds(5));
        }
      }
    }
  }
}
