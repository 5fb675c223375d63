package dev.hfr.spring.ai;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.tool.annotation.Tool;

/** Spring AI tools with HFR annotations on the same methods: a read, an idempotent charge, an irreversible e-mail. */
public class ShopTools {

  final AtomicInteger refuseNext = new AtomicInteger();
  final AtomicInteger searches = new AtomicInteger();
  final List<String> chargeKeys = new CopyOnWriteArrayList<>();
  final List<String> emails = new CopyOnWriteArrayList<>();
  final AtomicInteger emailAttempts = new AtomicInteger();
  volatile boolean mailTimesOut;

  @Tool(description = "Searches the catalogue")
  @SideEffect(Risk.R0)
  public String search(String query) {
    searches.incrementAndGet();
    refuseIfTold();
    return "3 results for " + query;
  }

  @Tool(description = "Charges a customer's account")
  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(String account, int cents, @IdempotencyKey String key) {
    chargeKeys.add(String.valueOf(key));
    refuseIfTold();
    return "charged " + cents + " to " + account;
  }

  @Tool(description = "Sends an e-mail to the customer")
  @SideEffect(Risk.R3)
  public String email(String text) {
    emailAttempts.incrementAndGet();
    if (mailTimesOut) {
      throw new UncheckedIOException(new HttpTimeoutException("request timed out"));
    }
    emails.add(text);
    return "sent";
  }

  private void refuseIfTold() {
    if (refuseNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new UncheckedIOException(new ConnectException("Connection refused"));
    }
  }
}
