package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hand-written tools over {@link ShopService}, shaped exactly as the processor generates them: one
 * descriptor per method and one {@link ToolInvocation} per call whose {@code proceed}, {@code reconcile}
 * and {@code compensate} call the real HTTP service with the call's own arguments.
 */
final class ShopTools {

  /** {@code String charge(String ref, long amountCents, @IdempotencyKey String key)}: R1, compensated by {@code refund}, no reconcile. */
  static final ToolDescriptor CHARGE = ToolDescriptor.builder("com.acme.Payments", "charge", Risk.R1)
      .parameters("ref", "amountCents", "idempotencyKey").idempotencyKeyParameter(2).compensate("refund")
      .retry(Fixtures.FAST).resultType(String.class).build();

  /** {@code String createOrder(String ref)}: R2 with {@code findOrder}, compensated by {@code cancelOrder}. */
  static final ToolDescriptor CREATE_ORDER = ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2)
      .parameters("ref").reconcile("findOrder").compensate("cancelOrder").retry(Fixtures.FAST)
      .resultType(String.class).build();

  /** {@code String send(String to)}: R3 without reconcile or compensation. */
  static final ToolDescriptor SEND_MAIL = ToolDescriptor.builder("com.acme.Mail", "send", Risk.R3)
      .parameters("to").resultType(String.class).build();

  /** Thrown from inside a call to stand for the process dying there: the engine does not catch an Error. */
  static final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    SimulatedCrash() {
      super("the JVM died here");
    }
  }

  private ShopTools() {}

  /** One call of {@code charge}. */
  static final class Charge extends ToolInvocation<String> {
    private final ShopService shop;
    private final String ref;
    private final long amountCents;
    final List<String> keysSent = new CopyOnWriteArrayList<>();
    final AtomicInteger refunds = new AtomicInteger();
    volatile boolean crashAfterSend;

    Charge(ShopService shop, String ref, long amountCents) {
      this.shop = shop;
      this.ref = ref;
      this.amountCents = amountCents;
    }

    @Override
    public String proceed(String ledgerKey) throws Exception {
      keysSent.add(ledgerKey);
      String receipt = shop.post("/payments", Map.of("ref", ref, "amount", Long.toString(amountCents)), ledgerKey);
      if (crashAfterSend) {
        throw new SimulatedCrash();
      }
      return receipt;
    }

    @Override
    public int argumentCount() {
      return 3;
    }

    @Override
    public Object argument(int index) {
      return switch (index) {
        case 0 -> ref;
        case 1 -> amountCents;
        case 2 -> null;   // the caller passed no key: the runtime's is used
        default -> throw new IndexOutOfBoundsException("charge takes 3 arguments; no argument " + index);
      };
    }

    @Override
    public void compensate() throws Exception {
      refunds.incrementAndGet();
      shop.post("/refunds", Map.of("ref", ref), null);
    }
  }

  /** One call of {@code createOrder}. */
  static final class CreateOrder extends ToolInvocation<String> {
    private final ShopService shop;
    private final String ref;
    final AtomicInteger sends = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    volatile boolean crashAfterCancel;

    CreateOrder(ShopService shop, String ref) {
      this.shop = shop;
      this.ref = ref;
    }

    @Override
    public String proceed(String ledgerKey) throws Exception {
      sends.incrementAndGet();
      return shop.post("/orders", Map.of("ref", ref), null);
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      if (index != 0) {
        throw new IndexOutOfBoundsException("createOrder takes 1 argument; no argument " + index);
      }
      return ref;
    }

    @Override
    public Optional<String> reconcile() throws Exception {
      return shop.find("/orders", ref);
    }

    @Override
    public void compensate() throws Exception {
      cancels.incrementAndGet();
      shop.post("/orders/cancel", Map.of("ref", ref), null);
      if (crashAfterCancel) {
        throw new SimulatedCrash();
      }
    }
  }

  /** One call of {@code send}. */
  static final class SendMail extends ToolInvocation<String> {
    private final ShopService shop;
    private final String to;
    final AtomicInteger sends = new AtomicInteger();
    volatile boolean crashAfterSend;

    SendMail(ShopService shop, String to) {
      this.shop = shop;
      this.to = to;
    }

    @Override
    public String proceed(String ledgerKey) throws Exception {
      sends.incrementAndGet();
      String answer = shop.post("/mail", Map.of("to", to), null);
      if (crashAfterSend) {
        throw new SimulatedCrash();
      }
      return answer;
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      if (index != 0) {
        throw new IndexOutOfBoundsException("send takes 1 argument; no argument " + index);
      }
      return to;
    }
  }
}
