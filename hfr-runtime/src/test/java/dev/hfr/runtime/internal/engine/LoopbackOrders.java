package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.internal.engine.LoopbackHttp.Answer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The loopback order service the engine tests share (an R2 write): {@code POST /orders} with an order's
 * reference as its body creates an order on every request it commits — so a blind resend is a duplicate,
 * counted here — and {@code GET /orders/find?ref=} looks the order up (an empty body: none). The test
 * decides how each request is answered ({@link #serve}); {@link CreateOrder} is the client side, reconciled
 * through the lookup.
 */
final class LoopbackOrders {

  /** What the service does with one {@code POST}: commit the order or not, and how to answer. */
  record Outcome(boolean commits, int status, long delayMillis) {
    /** Commits and answers 200 with the order. */
    static Outcome created() {
      return new Outcome(true, 200, 0);
    }

    /** Answers {@code status} without committing anything. */
    static Outcome fails(int status) {
      return new Outcome(false, status, 0);
    }

    /** Commits, then holds the answer for {@code millis} (past the client's timeout: the answer is lost). */
    static Outcome commitsThenHangs(long millis) {
      return new Outcome(true, 200, millis);
    }
  }

  /** Chooses the outcome of request {@code attempt} (1-based) for order {@code ref}. */
  @FunctionalInterface
  interface Behaviour {
    Outcome on(String ref, int attempt);
  }

  private final LoopbackHttp http;
  /** Order reference → how many orders the service created for it (more than one: a duplicate). */
  final Map<String, AtomicInteger> created = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private volatile long lookupDelayMillis;

  LoopbackOrders(LoopbackHttp http) {
    this.http = http;
  }

  /** The descriptor of {@code Orders.createOrder(ref)}, reconciled by {@code findOrder}, with the default retry. */
  static ToolDescriptor.Builder createOrder() {
    return ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2).parameters("ref").reconcile("findOrder")
        .resultType(String.class);
  }

  /** The body of an order's answer and of its lookup. */
  static String order(String ref) {
    return "{\"id\":\"" + ref + "\"}";
  }

  /** Serves {@code /orders} with {@code behaviour} and {@code /orders/find} with the orders it committed. */
  LoopbackOrders serve(Behaviour behaviour) {
    http.route("/orders", (n, ref, q) -> {
      Outcome o = behaviour.on(ref, attempts.computeIfAbsent(ref, k -> new AtomicInteger()).incrementAndGet());
      if (!o.commits()) {
        return Answer.status(o.status(), "");
      }
      created.computeIfAbsent(ref, k -> new AtomicInteger()).incrementAndGet();
      return o.delayMillis() > 0 ? Answer.hang(o.delayMillis(), order(ref)) : Answer.ok(order(ref));
    });
    http.route("/orders/find", (n, body, q) -> {
      String ref = q.substring("ref=".length());
      String found = created.containsKey(ref) ? order(ref) : "";
      return lookupDelayMillis > 0 ? Answer.hang(lookupDelayMillis, found) : Answer.ok(found);
    });
    return this;
  }

  /** Lookups answer only after {@code millis} from now on (a reconcile that hangs). */
  LoopbackOrders lookupsHang(long millis) {
    this.lookupDelayMillis = millis;
    return this;
  }

  /** Orders created more than once for one reference. */
  int duplicates() {
    return (int) created.values().stream().filter(c -> c.get() > 1).count();
  }

  /** {@code POST /orders}, reconciled by {@code GET /orders/find}, each with the client timeout given. */
  final class CreateOrder extends ToolInvocation<String> {
    private final String ref;
    private final Duration clientTimeout;

    CreateOrder(String ref, Duration clientTimeout) {
      this.ref = ref;
      this.clientTimeout = clientTimeout;
    }

    @Override
    public String proceed(String key) throws Exception {
      return http.post("/orders", ref, clientTimeout);
    }

    @Override
    public Optional<String> reconcile() throws Exception {
      String found = http.get("/orders/find?ref=" + ref, clientTimeout);
      return found.isEmpty() ? Optional.empty() : Optional.of(found);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return ref;
    }
  }
}
