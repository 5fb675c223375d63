package dev.hfr.spring.boot.shop;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The service the test tools call: refuses the connection (a transient T1 failure) for as many calls as it is told,
 * then answers, counting every call that reached it.
 */
@Component
public class StockService {

  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile boolean timingOut;
  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> reservationKeys = new CopyOnWriteArrayList<>();

  /** The next {@code n} calls fail. */
  public void failNext(int n) {
    failuresLeft.set(n);
  }

  /** From now on every call times out: its outcome is unknown to the caller. */
  public void timeOut() {
    timingOut = true;
  }

  public int calls() {
    return calls.get();
  }

  /** The idempotency keys of the reservations made, one per reservation that reached the service. */
  public List<String> reservationKeys() {
    return List.copyOf(reservationKeys);
  }

  String lookUp(String sku) {
    answerOrFail();
    return sku + ": 7 in stock";
  }

  String reserve(String sku, String key) {
    answerOrFail();
    reservationKeys.add(key);
    return "reservation of " + sku;
  }

  private void answerOrFail() {
    calls.incrementAndGet();
    if (timingOut) {
      throw new UncheckedIOException(new SocketTimeoutException("Read timed out"));
    }
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new UncheckedIOException(new ConnectException("Connection refused"));
    }
  }
}
