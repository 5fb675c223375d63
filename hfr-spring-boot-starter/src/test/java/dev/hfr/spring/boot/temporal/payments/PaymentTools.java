package dev.hfr.spring.boot.temporal.payments;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Timeout;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** The provider's tool, a component like any other: the starter hands out its generated proxy. */
@Component
public class PaymentTools {

  private final PaymentService payments;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public PaymentTools(PaymentService payments) {
    this.payments = payments;
  }

  /**
   * Charges an order; the provider deduplicates on the key HFR fills in. One attempt per call: a charge whose
   * answer was lost is resent by Temporal's next activity attempt, not within this one.
   */
  @SideEffect(Risk.R1)
  @Idempotent
  @Retry(maxAttempts = 1)
  @Timeout(ms = 2000)
  public String charge(String order, long cents, @IdempotencyKey String key) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(payments.uri().resolve("/charges"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString("order=" + URLEncoder.encode(order, StandardCharsets.UTF_8)
            + "&cents=" + cents))
        .timeout(Duration.ofSeconds(2)).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw HttpCallException.of(response);
    }
    return response.body();
  }
}
