package dev.hfr.langchain4j;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.langchain4j.agent.tool.Tool;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** An R1 tool: the payment service honours an idempotency key, which HFR supplies and the model never sees. */
public class PaymentDesk {

  final List<String> keysSeen = new CopyOnWriteArrayList<>();
  final AtomicInteger refuseNext = new AtomicInteger();

  @Tool("Charges a customer's account")
  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(String account, int cents, @IdempotencyKey String key) {
    keysSeen.add(String.valueOf(key));
    if (refuseNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new UncheckedIOException(new ConnectException("Connection refused"));
    }
    return "charged " + cents + " to " + account;
  }
}
