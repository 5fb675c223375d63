package dev.hfr.samples.verify;

import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Verify;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A tool class whose writes are verified, compiled by the HFR processor into {@code Store_Recovering}: an
 * order (R2) that can be looked up and cancelled, a stock hold (R2) that can be looked up but not undone, a
 * charge (R1, keyed) that cannot be looked up but can be refunded, and a receipt mail (R3). Every write's
 * answer must be a confirmation (it starts with {@code ok-}); anything else is rejected as a V1.
 */
public class Store {

  /** Accepts a confirmation; rejects any other answer with the answer as its evidence. */
  public static final class ConfirmationVerifier implements Verifier<String> {
    @Override
    public Verdict verify(String answer) {
      return answer.startsWith("ok-") ? Verdict.accept() : Verdict.reject("not_a_confirmation", java.util.Map.of("answer", answer));
    }
  }

  private final HttpClient client = HttpClient.newHttpClient();
  private final URI shop;

  public Store(URI shop) {
    this.shop = shop;
  }

  /** Places an order of {@code item} for {@code customer}; the shop answers with its confirmation. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder", compensate = "cancelOrder")
  @Verify(level = VerifyLevel.V1, by = ConfirmationVerifier.class)
  public String placeOrder(String customer, String item) throws IOException, InterruptedException {
    return send("POST", "/orders", customer, item, null);
  }

  /** Read-only by contract: the live order of {@code item} for {@code customer}, if the shop has one. */
  public Optional<String> findOrder(String customer, String item) throws IOException, InterruptedException {
    String id = send("GET", "/orders", customer, item, null);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Cancels that order: the compensation of {@link #placeOrder}. */
  @SideEffect(value = Risk.R2, reconcile = "findCancellation")
  public String cancelOrder(String customer, String item) throws IOException, InterruptedException {
    return send("POST", "/cancellations", customer, item, null);
  }

  /** Read-only by contract: the cancellation of that order, if any. */
  public Optional<String> findCancellation(String customer, String item) throws IOException, InterruptedException {
    String id = send("GET", "/cancellations", customer, item, null);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Holds {@code item} in stock for {@code customer}: it can be looked up, but nothing releases it. */
  @SideEffect(value = Risk.R2, reconcile = "findHold")
  @Verify(level = VerifyLevel.V1, by = ConfirmationVerifier.class)
  public String holdStock(String customer, String item) throws IOException, InterruptedException {
    return send("POST", "/holds", customer, item, null);
  }

  /** Read-only by contract: the hold of {@code item} for {@code customer}, if any. */
  public Optional<String> findHold(String customer, String item) throws IOException, InterruptedException {
    String id = send("GET", "/holds", customer, item, null);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Charges {@code customer}; the payment provider deduplicates on the idempotency key. */
  @SideEffect(value = Risk.R1, compensate = "refund")
  @Idempotent
  @Verify(level = VerifyLevel.V1, by = ConfirmationVerifier.class)
  public String charge(String customer, String amount, @IdempotencyKey String key) throws IOException, InterruptedException {
    return send("POST", "/charges", customer, amount, key);
  }

  /** Refunds the live charge of {@code amount} to {@code customer}: the compensation of {@link #charge}. */
  @SideEffect(value = Risk.R1)
  @Idempotent
  public String refund(String customer, String amount, @IdempotencyKey String key) throws IOException, InterruptedException {
    return send("POST", "/refunds", customer, amount, null);
  }

  /** Mails the receipt: irreversible. */
  @SideEffect(Risk.R3)
  @Verify(level = VerifyLevel.V1, by = ConfirmationVerifier.class)
  public String mailReceipt(String customer, String item) throws IOException, InterruptedException {
    return send("POST", "/mail", customer, item, null);
  }

  private String send(String method, String path, String who, String what, String key) throws IOException, InterruptedException {
    String query = "?who=" + URLEncoder.encode(who, StandardCharsets.UTF_8) + "&what=" + URLEncoder.encode(what, StandardCharsets.UTF_8);
    HttpRequest.Builder request = HttpRequest.newBuilder(shop.resolve(path + query)).timeout(Duration.ofSeconds(5))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(method + " " + path + " answered " + response.statusCode());
    }
    return response.body();
  }
}
