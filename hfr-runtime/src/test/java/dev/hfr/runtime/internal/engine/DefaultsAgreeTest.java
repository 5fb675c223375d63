package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.policy.CallPolicy;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One set of defaults: an engine built without a configuration, with the paper's default configuration
 * file, and with {@link HfrConfig#defaults()} decides every call alike (§4.3's should_retry: a timed-out R1
 * write is resent under its key, an R2 write is reconciled first, an R3 write is never resent).
 */
class DefaultsAgreeTest {

  /** The paper's §5.2 retry section, as docs/CONFIG.md shows it. */
  static final String PAPER_RETRY = String.join("\n",
      "hfr:",
      "  version: \"1.0\"",
      "  retry:",
      "    base_delay_ms: 200",
      "    max_delay_ms: 2000",
      "    jitter: full",
      "    max_attempts_per_step: 4",
      "    max_retries_per_task: 10",
      "    max_retries_per_tenant_per_min: 600",
      "    respect_retry_after: true",
      "    retry_on: [T1, T2, T3_readonly, T6_after_compress]",
      "    never_retry_on: [T7, T8, T3_write_without_idempotency]",
      "");

  /** Tools as the processor describes them when only their risk is annotated (the annotations' defaults). */
  static final ToolDescriptor SEARCH = ToolDescriptor.builder("com.acme.Shop", "search", Risk.R0).parameters("q")
      .resultType(String.class).build();
  static final ToolDescriptor CHARGE = ToolDescriptor.builder("com.acme.Shop", "charge", Risk.R1)
      .parameters("amount", "key").idempotencyKeyParameter(1).resultType(String.class).build();
  static final ToolDescriptor ORDER = ToolDescriptor.builder("com.acme.Shop", "createOrder", Risk.R2).parameters("sku")
      .reconcile("findOrder").resultType(String.class).build();
  static final ToolDescriptor RECEIPT = ToolDescriptor.builder("com.acme.Shop", "sendReceipt", Risk.R3)
      .parameters("to").resultType(String.class).build();

  /** How one engine built a certain way is made. */
  enum Build {
    NO_CONFIG(f -> f.engine()),
    PAPER_FILE(f -> f.builder().config(HfrConfigLoader.parse(PAPER_RETRY, "hfr.yaml")).build()),
    DEFAULTS_OBJECT(f -> f.builder().config(HfrConfig.defaults()).build());

    final Function<Fixtures, Hfr> engine;

    Build(Function<Fixtures, Hfr> engine) {
      this.engine = engine;
    }
  }

  /** A call's observable end: its answer or exception's reason, and what it sent where. */
  record Decision(String answer, int methodCalls, int reconcileCalls, int distinctKeys, int escalations) {}

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of("a timed-out R1 charge is resent under the same key", CHARGE,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>(10, null).fails(Fixtures.timeout()).returns("charged")),
        Arguments.of("a timed-out read is retried", SEARCH,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>("q").fails(Fixtures.timeout()).returns("3 hits")),
        Arguments.of("a timed-out R2 order is reconciled; found: its result", ORDER,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>("sku").fails(Fixtures.timeout()).returns("dup")
                .reconcileFinds("order-1")),
        Arguments.of("a timed-out R2 order reconciled absent is resent once", ORDER,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>("sku").fails(Fixtures.timeout()).returns("order-2")
                .reconcileFindsNothing()),
        Arguments.of("a timed-out R3 receipt is escalated, never resent", RECEIPT,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>("a@example.com").fails(Fixtures.timeout()).returns("sent")),
        Arguments.of("an R1 charge answered 503 then 429 is retried", CHARGE,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>(10, null).fails(Fixtures.unavailable())
                .fails(Fixtures.http(429, "Retry-After", "1", "{}")).returns("charged")),
        Arguments.of("an R2 order answered 503 is reconciled first", ORDER,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>("sku").fails(Fixtures.unavailable()).returns("order-3")
                .reconcileFindsNothing()),
        Arguments.of("an R1 charge timing out on every attempt ends unknown after four", CHARGE,
            (Supplier<ScriptedTool<String>>) () -> new ScriptedTool<String>(10, null).failsTimes(6, Fixtures.timeout())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  @DisplayName("without a configuration, with the paper's file and with HfrConfig.defaults() the call ends alike")
  void sameDecisions(String name, ToolDescriptor tool, Supplier<ScriptedTool<String>> script) {
    Set<Decision> decisions = new LinkedHashSet<>();
    for (Build build : Build.values()) {
      decisions.add(run(build, tool, script.get()));
    }
    assertThat(decisions).as(name).hasSize(1);
  }

  @Test
  @DisplayName("a timed-out R1 write with a key is resent under that key, however the engine was built")
  void timedOutIdempotentWriteIsResent() {
    for (Build build : Build.values()) {
      Decision d = run(build, CHARGE, new ScriptedTool<String>(10, null).fails(Fixtures.timeout()).returns("charged"));
      assertThat(d).as(build.name()).isEqualTo(new Decision("charged", 2, 0, 1, 0));
    }
  }

  @Test
  @DisplayName("every default policy agrees on retries (attempts, delays, jitter, Retry-After, what is retried), "
      + "timeouts, quality floors, the breaker and the task's retry limits")
  void samePolicies() {
    DefaultPolicies none = new DefaultPolicies(0);
    ConfigPolicies file = new ConfigPolicies(HfrConfigLoader.parse(PAPER_RETRY, "hfr.yaml"), 0);
    for (ToolDescriptor tool : List.of(SEARCH, CHARGE, ORDER, RECEIPT)) {
      for (Criticality.Level level : Criticality.Level.values()) {
        // The engine hands DefaultPolicies the call's effective criticality, ConfigPolicies the task's.
        CallPolicy a = none.policy("acme", tool, Controller.effectiveCriticality(level, tool.criticality()));
        CallPolicy b = file.policy("acme", tool, level);
        assertThat(b.retry().maxAttempts()).as(tool.name()).isEqualTo(a.retry().maxAttempts());
        assertThat(b.retry().baseDelayMs()).isEqualTo(a.retry().baseDelayMs());
        assertThat(b.retry().maxDelayMs()).isEqualTo(a.retry().maxDelayMs());
        assertThat(b.jitter()).isEqualTo(a.jitter());
        assertThat(b.respectRetryAfter()).isEqualTo(a.respectRetryAfter());
        assertThat(b.reconcileTimeoutMs()).isEqualTo(a.reconcileTimeoutMs());
        assertThat(b.timeoutMs()).isEqualTo(a.timeoutMs());
        assertThat(b.qualityFloor()).isEqualTo(a.qualityFloor());
        // T6 follows its own rule (compress first), so listing it or not decides nothing.
        assertThat(withoutOwnRules(b.retry().retryOn())).as(tool.name()).isEqualTo(withoutOwnRules(a.retry().retryOn()));
      }
    }
    assertThat(file.breakerDefaults()).usingRecursiveComparison().isEqualTo(CircuitBreakerConfig.defaults());
    assertThat(file.taskLimits("acme").maxRetries()).isEqualTo(none.taskLimits("acme").maxRetries());
    assertThat(file.taskLimits("acme").maxSameToolCalls()).isEqualTo(none.taskLimits("acme").maxSameToolCalls());
  }

  private static Set<Fault> withoutOwnRules(Set<Fault> faults) {
    EnumSet<Fault> s = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
    s.remove(Fault.T6);
    return s;
  }

  private static Decision run(Build build, ToolDescriptor tool, ScriptedTool<String> call) {
    Fixtures f = new Fixtures();
    Hfr hfr = build.engine.apply(f);
    String answer;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      answer = hfr.execute(tool, call);
    } catch (ToolCallException e) {
      answer = e.getClass().getSimpleName() + ":" + e.outcome().reason() + ":" + e.outcome().attempts();
    }
    // A file's human_spot_check_rate samples accepted results for a person: a sample, not a decision on the call.
    int escalations = (int) f.escalations.pending().stream().filter(e -> e.reason() != Reason.HUMAN_SPOT_CHECK).count();
    return new Decision(answer, call.methodCalls, call.reconcileCalls, new LinkedHashSet<>(call.keys).size(), escalations);
  }
}
