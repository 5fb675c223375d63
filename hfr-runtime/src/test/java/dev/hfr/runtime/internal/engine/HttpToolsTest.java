package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.degrade.Compressible;
import dev.hfr.runtime.internal.engine.LoopbackHttp.Answer;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The engine against real HTTP services on 127.0.0.1: real status codes, headers and provider-format
 * bodies on the wire, real client timeouts. Backoffs run on virtual time so the tests stay fast.
 */
@DisplayName("The engine against real HTTP services")
class HttpToolsTest {

  /** Generous: the build machine is shared and slow; a hanging answer hangs well past it. */
  private static final Duration TIMEOUT = Duration.ofMillis(1500);
  private static final RetrySpec RETRY = RetrySpec.of(4, 50, 500, Fault.T1, Fault.T2, Fault.T3);

  private final Fixtures f = new Fixtures();
  private final LoopbackHttp http = LoopbackHttp.start();
  private final LoopbackOrders orders = new LoopbackOrders(http);

  @BeforeEach
  void warmUp() throws Exception {
    // The first exchange of a fresh client and server pays for class loading; keep it out of the timings.
    http.warmUp();
  }

  @AfterEach
  void stop() {
    http.close();
  }

  // ---- the tools: hand-written invocations calling the JDK HttpClient -------------------------------

  static final ToolDescriptor SEARCH = ToolDescriptor.builder("com.acme.Search", "search", Risk.R0).parameters("q")
      .retry(RETRY).resultType(String.class).build();

  /** GET {@code path?q=...}. */
  final class SearchCall extends ToolInvocation<String> {
    private final String path;
    private final String q;

    SearchCall(String path, String q) {
      this.path = path;
      this.q = q;
    }

    @Override
    public String proceed(String key) throws Exception {
      return http.get(path + "?q=" + q, TIMEOUT);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return q;
    }
  }

  static ToolDescriptor model(Criticality.Level criticality) {
    return ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("prompt").retry(RETRY)
        .criticality(criticality).resultType(String.class)
        .degradeTo("completeWithBackup", DegradeLevel.L2, Risk.R0).build();
  }

  /** POST /v1/complete, with rung 0 POST /backup/complete; its prompt can be compressed. */
  final class CompleteCall extends ToolInvocation<String> implements Compressible {
    String prompt;

    CompleteCall(String prompt) {
      this.prompt = prompt;
    }

    @Override
    public String proceed(String key) throws Exception {
      return http.post("/v1/complete", prompt, TIMEOUT);
    }

    @Override
    public String degrade(int index) throws Exception {
      return http.post("/backup/complete", prompt, TIMEOUT);
    }

    @Override
    public boolean compressContext(int round) {
      if (prompt.length() <= 8) {
        return false;
      }
      prompt = prompt.substring(prompt.length() / 2);
      return true;
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return prompt;
    }
  }

  static final ToolDescriptor CREATE_ORDER = LoopbackOrders.createOrder().retry(RETRY).build();

  static final ToolDescriptor SEND_MAIL = ToolDescriptor.builder("com.acme.Mail", "send", Risk.R3).parameters("to")
      .resultType(String.class).build();

  final class SendMail extends ToolInvocation<String> {
    @Override
    public String proceed(String key) throws Exception {
      return http.post("/mail", "ann@example.com", TIMEOUT);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return "ann@example.com";
    }
  }

  // ---- the tests --------------------------------------------------------------------------------------

  @Test
  @DisplayName("a 429 with Retry-After is retried no sooner than the server asked")
  void rateLimitWithRetryAfter() {
    http.route("/search", (n, body, q) -> n == 1
        ? Answer.status(429, "Retry-After", "1", "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}")
        : Answer.ok("[\"hit\"]"));
    long before = f.time.nanoTime();

    assertThat(f.engine().execute(SEARCH, new SearchCall("/search", "java"))).isEqualTo("[\"hit\"]");

    assertThat(http.hits("/search")).isEqualTo(2);
    assertThat(f.time.nanoTime() - before).isGreaterThanOrEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(f.sink.events).singleElement().satisfies(e -> {
      assertThat(e.fault()).isEqualTo(Fault.T2);
      assertThat(e.rule()).isEqualTo("http.429.retry-after");
    });
  }

  @Test
  @DisplayName("503s are retried with backoff until the service answers")
  void transientServerErrors() {
    http.route("/search", (n, body, q) -> n <= 2 ? Answer.status(503, "{\"error\":{\"type\":\"service_unavailable\"}}")
        : Answer.ok("[\"hit\"]"));
    assertThat(f.engine().execute(SEARCH, new SearchCall("/search", "java"))).isEqualTo("[\"hit\"]");
    assertThat(http.hits("/search")).isEqualTo(3);
    assertThat(f.sink.actions()).containsExactly(Action.RETRY, Action.RETRY);
  }

  @Test
  @DisplayName("a read that hangs past its timeout (T3) is retried")
  void hangingReadIsRetried() {
    http.route("/search", (n, body, q) -> n == 1 ? Answer.hang(4_000, "[\"late\"]") : Answer.ok("[\"hit\"]"));
    assertThat(f.engine().execute(SEARCH, new SearchCall("/search", "java"))).isEqualTo("[\"hit\"]");
    assertThat(f.sink.events).singleElement().satisfies(e -> assertThat(e.fault()).isEqualTo(Fault.T3));
  }

  @Test
  @DisplayName("a 529 overloaded_error degrades to the backup model instead of hammering the overloaded one")
  void overloadedModelDegrades() {
    http.route("/v1/complete", (n, body, q) -> Answer.status(529,
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
    http.route("/backup/complete", (n, body, q) -> Answer.ok("{\"text\":\"from backup\"}"));
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      assertThat(hfr.execute(model(Criticality.Level.MEDIUM), new CompleteCall("hello"))).contains("from backup");
      assertThat(task.lastOutcome().degraded()).isTrue();
    }
    assertThat(http.hits("/v1/complete")).isEqualTo(1);
  }

  @Test
  @DisplayName("a 400 context_length_exceeded is compressed and resent, never resent unchanged")
  void contextOverflowIsCompressed() {
    http.route("/v1/complete", (n, body, q) -> body.length() > 20
        ? Answer.status(400, "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens\","
            + "\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}")
        : Answer.ok("{\"text\":\"ok\"}"));
    CompleteCall call = new CompleteCall("a very long conversation history that does not fit");
    assertThat(f.engine().execute(model(Criticality.Level.MEDIUM), call)).contains("ok");
    assertThat(call.prompt.length()).isLessThanOrEqualTo(20);
    assertThat(f.sink.actions()).startsWith(Action.COMPRESS, Action.RETRY);
  }

  @Test
  @DisplayName("a 403 is a permanent error (T7): no retry")
  void forbiddenIsNotRetried() {
    http.route("/search", (n, body, q) -> Answer.status(403, "{\"error\":{\"type\":\"permission_error\"}}"));
    ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> f.engine().execute(SEARCH, new SearchCall("/search", "java")));
    assertThat(e.outcome().errorType()).isEqualTo(Fault.T7);
    assertThat(e.outcome().retryable()).isFalse();
    assertThat(http.hits("/search")).isEqualTo(1);
  }

  @Test
  @DisplayName("a content-policy refusal (T8) escalates and never reaches the backup model")
  void refusalIsNotDegradedAround() {
    http.route("/v1/complete", (n, body, q) -> Answer.status(400,
        "{\"error\":{\"code\":\"content_filter\",\"message\":\"The response was filtered\"}}"));
    http.route("/backup/complete", (n, body, q) -> Answer.ok("{\"text\":\"evaded\"}"));
    ToolCallException e = catchThrowableOfType(ToolCallException.class,
        () -> f.engine().execute(model(Criticality.Level.LOW), new CompleteCall("hi")));
    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(http.hits("/backup/complete")).isZero();
  }

  @Test
  @DisplayName("an R2 order that committed and then timed out is reconciled, not created twice")
  void r2TimeoutAfterCommitIsReconciled() {
    // Committed; the first answer is lost to the client's timeout.
    orders.serve((ref, attempt) -> attempt == 1 ? LoopbackOrders.Outcome.commitsThenHangs(4_000) : LoopbackOrders.Outcome.created());
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "checkout-7").build())) {
      assertThat(hfr.execute(CREATE_ORDER, orders.new CreateOrder("sku-1", TIMEOUT))).isEqualTo(LoopbackOrders.order("sku-1"));
      assertThat(task.lastOutcome().reason()).isEqualTo(Reason.RECONCILED_COMMITTED.code());
    }
    assertThat(orders.created.get("sku-1")).hasValue(1);
    assertThat(f.sink.events).extracting(DecisionEvent::ledgerState).containsExactly("UNKNOWN", "RECONCILED_COMMITTED");
    assertThat(f.ledger.pending()).isEmpty();
    assertThat(f.registry.get("harness.reconcile").tag("outcome", "committed").counter().count()).isEqualTo(1.0);
    assertThat(f.sink.events).allSatisfy(e -> assertThat(e.ledgerState()).isIn(LedgerState.UNKNOWN.name(),
        LedgerState.RECONCILED_COMMITTED.name()));
  }

  @Test
  @DisplayName("an R3 e-mail that failed with a 503 is never resent")
  void r3IsNeverRetried() {
    http.route("/mail", (n, body, q) -> Answer.status(503, "{\"error\":{\"type\":\"service_unavailable\"}}"));
    assertThatThrownBy(() -> f.engine().execute(SEND_MAIL, new SendMail())).isInstanceOf(ToolCallException.class);
    assertThat(http.hits("/mail")).isEqualTo(1);
  }

  @Test
  @DisplayName("in shadow mode the service sees exactly the calls it would without HFR")
  void shadowModeChangesNothing() {
    http.route("/search", (n, body, q) -> Answer.status(503, "{\"error\":{\"type\":\"service_unavailable\"}}"));
    Hfr hfr = f.builder().mode(HfrMode.SHADOW).build();
    assertThatThrownBy(() -> hfr.execute(SEARCH, new SearchCall("/search", "java"))).isInstanceOf(HttpCallException.class);
    assertThat(http.hits("/search")).isEqualTo(1);
    assertThat(f.sink.events).singleElement().satisfies(e -> {
      assertThat(e.mode()).isEqualTo("shadow");
      assertThat(e.action()).isEqualTo(Action.RETRY);
    });
  }
}
