package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.internal.engine.LoopbackHttp.Answer;
import dev.hfr.runtime.ledger.InMemoryLedger;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A tool that ignores interruption: its HTTP client is {@link HttpURLConnection} without a read timeout,
 * blocked in a socket read, which a thread interrupt does not end. Its first timed-out attempt runs on the
 * caller's thread and cannot be taken back — it is counted and the tool is marked; every later attempt runs
 * on a thread of its own and is abandoned at its timeout: counted, its late answer discarded, a read retried,
 * a write reconciled and never resent.
 */
@DisplayName("A tool that ignores interruption is abandoned at its timeout, not waited for, and the leak is counted")
class AbandonedAttemptTest {

  private static final RetrySpec FAST = RetrySpec.of(4, 10, 50, Fault.T1, Fault.T2, Fault.T3);
  private static final long TIMEOUT_MS = 200;

  private final LoopbackHttp http = LoopbackHttp.start();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void warmUp() throws Exception {
    http.warmUp();
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private Hfr engine() {
    return Hfr.builder().ledger(new InMemoryLedger()).meterRegistry(registry).decisionSink(e -> { }).seed(7).build();
  }

  private double meter(String name) {
    return registry.find(name).functionCounter() != null ? registry.get(name).functionCounter().count()
        : registry.get(name).gauge().value();
  }

  /** A blocking request with {@link HttpURLConnection} and no read timeout: a thread interrupt does not end it. */
  private String send(String method, String pathAndQuery, String body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) http.uri(pathAndQuery).toURL().openConnection();
    connection.setRequestMethod(method);
    if (body != null) {
      connection.setDoOutput(true);
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private final class Quote extends ToolInvocation<String> {
    @Override
    public String proceed(String key) throws Exception {
      return send("GET", "/quote", null);
    }

    @Override
    public int argumentCount() {
      return 0;
    }

    @Override
    public Object argument(int index) {
      throw new IndexOutOfBoundsException(index);
    }
  }

  private final class CreateOrder extends ToolInvocation<String> {
    private final String sku;

    CreateOrder(String sku) {
      this.sku = sku;
    }

    @Override
    public String proceed(String key) throws Exception {
      return send("POST", "/orders", sku);
    }

    @Override
    public Optional<String> reconcile() throws Exception {
      String found = send("GET", "/orders/find?sku=" + sku, null);
      return found.isEmpty() ? Optional.empty() : Optional.of(found);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return sku;
    }
  }

  private static final ToolDescriptor QUOTE = ToolDescriptor.builder("com.acme.Prices", "quote", Risk.R0).retry(FAST)
      .timeoutMs(TIMEOUT_MS).resultType(String.class).build();

  private static final ToolDescriptor CREATE_ORDER = ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2)
      .parameters("sku").reconcile("findOrder").retry(FAST).timeoutMs(TIMEOUT_MS).resultType(String.class).build();

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  private void awaitNoLeak() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (meter("harness.attempt.abandoned.running") > 0 && System.nanoTime() < until) {
      Thread.sleep(20);
    }
  }

  @Test
  @DisplayName("a read: the first hang is waited out and counted; the next one is abandoned at 200 ms and retried")
  void readIsAbandonedAndRetried() throws Exception {
    http.route("/quote", (n, body, q) -> switch (n) {
      case 1 -> Answer.hang(1_500, "late-1");
      case 2 -> Answer.hang(3_000, "late-2");
      default -> Answer.ok("fresh-" + n);
    });
    try (Hfr hfr = engine()) {
      // First offence: the attempt runs on this thread, which the blocked read does not give back.
      assertThat(hfr.execute(QUOTE, new Quote())).as("an answer that came back is kept").isEqualTo("late-1");
      assertThat(meter("harness.attempt.interrupts.ignored")).isEqualTo(1.0);
      assertThat(meter("harness.attempt.abandoned")).isZero();

      long start = System.nanoTime();
      String answer = hfr.execute(QUOTE, new Quote());

      assertThat(answer).as("the late answer is discarded").isEqualTo("fresh-3");
      assertThat(millisSince(start)).as("not waited for the 3 s hang").isLessThan(2_000);
      assertThat(meter("harness.attempt.abandoned")).isEqualTo(1.0);
      assertThat(meter("harness.attempt.abandoned.running")).as("its thread is still blocked: the leak, counted").isEqualTo(1.0);
      assertThat(Thread.currentThread().isInterrupted()).isFalse();

      awaitNoLeak();
      assertThat(meter("harness.attempt.abandoned.running")).as("the thread came back when the read ended").isZero();
    }
  }

  @Test
  @DisplayName("a write: an abandoned attempt is an unknown outcome, reconciled, never resent")
  void writeIsAbandonedAndReconciled() throws Exception {
    Map<String, String> orders = new ConcurrentHashMap<>();
    http.route("/orders", (n, sku, q) -> {
      orders.put(sku, "{\"id\":\"o-" + n + "\"}"); // committed at once, answered late
      return Answer.hang(n == 1 ? 1_500 : 3_000, orders.get(sku));
    });
    http.route("/orders/find", (n, body, q) -> Answer.ok(orders.getOrDefault(q.substring("sku=".length()), "")));
    try (Hfr hfr = engine(); TaskScope task = hfr.openTask(TaskSpec.builder("acme", "orders").build())) {
      assertThat(hfr.execute(CREATE_ORDER, new CreateOrder("sku-1"))).isEqualTo("{\"id\":\"o-1\"}");
      assertThat(meter("harness.attempt.interrupts.ignored")).isEqualTo(1.0);

      long start = System.nanoTime();
      String order = hfr.execute(CREATE_ORDER, new CreateOrder("sku-2"));

      assertThat(order).isEqualTo("{\"id\":\"o-2\"}");
      assertThat(task.lastOutcome().reason()).isEqualTo("reconciled_committed");
      assertThat(millisSince(start)).isLessThan(2_000);
      assertThat(http.hits("/orders")).as("one POST per order: nothing resent").isEqualTo(2);
      assertThat(meter("harness.attempt.abandoned")).isEqualTo(1.0);
      awaitNoLeak();
    }
  }

  @Test
  @DisplayName("a tool that answers its interrupt is never moved off the caller's thread")
  void interruptibleToolStaysOnTheCallersThread() throws Exception {
    http.route("/search", (n, body, q) -> n == 1 ? Answer.hang(3_000, "late") : Answer.ok("hit"));
    ToolDescriptor search = ToolDescriptor.builder("com.acme.Search", "search", Risk.R0).retry(FAST)
        .timeoutMs(TIMEOUT_MS).resultType(String.class).build();
    Thread caller = Thread.currentThread();
    ToolInvocation<String> interruptible = new ToolInvocation<>() {
      @Override
      public String proceed(String key) throws Exception {
        assertThat(Thread.currentThread()).isSameAs(caller);
        return http.get("/search", Duration.ofSeconds(30)); // the JDK HttpClient answers an interrupt
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
    try (Hfr hfr = engine()) {
      assertThat(hfr.execute(search, interruptible)).isEqualTo("hit");
      assertThat(hfr.execute(search, interruptible)).isEqualTo("hit");
      assertThat(meter("harness.attempt.interrupts.ignored")).isZero();
      assertThat(meter("harness.attempt.abandoned")).isZero();
    }
  }
}
