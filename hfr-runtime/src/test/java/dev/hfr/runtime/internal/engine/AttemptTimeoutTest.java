package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.internal.engine.LoopbackHttp.Answer;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Timeouts on real time against a real HTTP service on 127.0.0.1 whose answers hang: the attempt runs on
 * the caller's thread and the shared timer interrupts it. The HTTP client's own timeout is 30 s, so only
 * HFR's bound can end these calls early.
 */
@DisplayName("Every attempt, reconcile and deadline is bounded")
class AttemptTimeoutTest {

  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);
  private static final RetrySpec FAST = RetrySpec.of(4, 10, 50, Fault.T1, Fault.T2, Fault.T3);

  private final LoopbackHttp http = LoopbackHttp.start();
  private final LoopbackOrders orders = new LoopbackOrders(http);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RecordingSink sink = new RecordingSink();

  @BeforeEach
  void warmUp() throws Exception {
    http.warmUp();
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private Hfr.Builder engine() {
    return Hfr.builder().ledger(new InMemoryLedger()).meterRegistry(registry).decisionSink(sink).seed(7);
  }

  /** GET {@code path}. */
  final class Get extends ToolInvocation<String> {
    private final String path;

    Get(String path) {
      this.path = path;
    }

    @Override
    public String proceed(String key) throws Exception {
      return http.get(path, CLIENT_TIMEOUT);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return path;
    }
  }

  private static ToolDescriptor.Builder search() {
    return ToolDescriptor.builder("com.acme.Search", "search", Risk.R0).parameters("path").retry(FAST)
        .resultType(String.class);
  }

  private static ToolDescriptor.Builder createOrder() {
    return LoopbackOrders.createOrder().retry(FAST);
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  @Test
  @DisplayName("@Timeout(200 ms) on a read whose first answer hangs 10 s: interrupted, classified T3, retried, answered")
  void timedOutReadIsRetried() {
    http.route("/search", (n, body, q) -> n == 1 ? Answer.hang(10_000, "{\"late\":true}") : Answer.ok("{\"hits\":1}"));
    try (Hfr hfr = engine().build()) {
      long start = System.nanoTime();

      String result = hfr.execute(search().timeoutMs(200).build(), new Get("/search"));

      assertThat(result).isEqualTo("{\"hits\":1}");
      assertThat(millisSince(start)).isLessThan(3_000);
      assertThat(http.hits("/search")).isEqualTo(2);
      assertThat(sink.events).anyMatch(e -> e.fault() == Fault.T3);
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
  }

  @Test
  @DisplayName("a write that times out is UNKNOWN and reconciled first, never resent blindly")
  void timedOutWriteIsReconciledNotResent() {
    orders.serve((ref, attempt) -> LoopbackOrders.Outcome.commitsThenHangs(10_000));
    try (Hfr hfr = engine().build(); TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-1").build())) {
      long start = System.nanoTime();

      String result = hfr.execute(createOrder().timeoutMs(200).build(), orders.new CreateOrder("sku-1", CLIENT_TIMEOUT));

      assertThat(result).isEqualTo(LoopbackOrders.order("sku-1"));
      assertThat(http.hits("/orders")).as("no blind resend").isEqualTo(1);
      assertThat(http.hits("/orders/find")).isEqualTo(1);
      assertThat(millisSince(start)).isLessThan(3_000);
      assertThat(task.lastOutcome().reason()).isEqualTo("reconciled_committed");
    }
  }

  @Test
  @DisplayName("idempotency.reconcile_timeout_ms: 200 with a reconcile that hangs 10 s: the call ends in well under a"
      + " second past the attempt, outcome unknown (it took 10,043 ms before)")
  void reconcileIsBounded() {
    orders.serve((ref, attempt) -> LoopbackOrders.Outcome.commitsThenHangs(10_000)).lookupsHang(10_000);
    String yaml = """
        hfr:
          idempotency:
            ledger: memory
            reconcile_timeout_ms: 200
        """;
    try (Hfr hfr = engine().config(HfrConfigLoader.parse(yaml, "hfr.yaml")).build()) {
      long start = System.nanoTime();

      Throwable thrown = catchThrowable(() -> hfr.execute(createOrder().timeoutMs(200).build(), orders.new CreateOrder("sku-2", CLIENT_TIMEOUT)));

      assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
      assertThat(((ToolCallException) thrown).outcome().reason()).isEqualTo("reconcile_unknown");
      assertThat(millisSince(start)).isLessThan(2_500);
      assertThat(http.hits("/orders")).as("never resent").isLessThanOrEqualTo(1);
    }
  }

  @Test
  @DisplayName("the task deadline cuts an attempt short when less time remains than its timeout")
  void deadlineShortensTheTimeout() {
    http.route("/search", (n, body, q) -> Answer.hang(10_000, "{}"));
    try (Hfr hfr = engine().build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").deadline(Duration.ofMillis(300)).build())) {
      long start = System.nanoTime();

      Throwable thrown = catchThrowable(() -> hfr.execute(search().timeoutMs(5_000).build(), new Get("/search")));

      assertThat(thrown).isInstanceOf(ToolCallException.class).hasCauseInstanceOf(AttemptTimeoutException.class);
      assertThat(millisSince(start)).isLessThan(2_000);
    }
  }

  @Test
  @DisplayName("without a timeout nothing interrupts a slow call")
  void noTimeoutNoInterrupt() {
    http.route("/search", (n, body, q) -> Answer.hang(300, "{\"slow\":true}"));
    try (Hfr hfr = engine().build()) {
      assertThat(hfr.execute(search().build(), new Get("/search"))).isEqualTo("{\"slow\":true}");
      assertThat(http.hits("/search")).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("a tool that ignores its interrupt is counted in harness.attempt.interrupts.ignored")
  void ignoredInterruptIsCounted() throws InterruptedException {
    ToolInvocation<String> spinner = new ToolInvocation<>() {
      @Override
      public String proceed(String key) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(1_000)) {
          Thread.onSpinWait();
        }
        return "done";
      }

      @Override
      public int argumentCount() {
        return 0;
      }

      @Override
      public Object argument(int index) {
        throw new IndexOutOfBoundsException(index);
      }
    };
    try (Hfr hfr = engine().build()) {
      ToolDescriptor spin = ToolDescriptor.builder("com.acme.Busy", "spin", Risk.R0).retry(FAST).timeoutMs(50)
          .resultType(String.class).build();

      assertThat(hfr.execute(spin, spinner)).as("a result that came back is kept").isEqualTo("done");
      assertThat(registry.get("harness.attempt.interrupts.ignored").functionCounter().count()).isEqualTo(1.0);
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
  }
}
