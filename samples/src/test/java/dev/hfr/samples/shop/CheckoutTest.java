package dev.hfr.samples.shop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.samples.services.InjectedFault;
import dev.hfr.samples.services.ShopServices;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The getting-started program (docs/GETTING-STARTED.md includes its code) against real services on 127.0.0.1. */
@DisplayName("The getting-started checkout")
class CheckoutTest {

  @TempDir Path dir;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ShopServices services;
  private Hfr hfr;
  private ShopTools tools;

  @BeforeEach
  void start() throws Exception {
    services = ShopServices.start();
    hfr = Checkout.engine(dir.resolve("ledger"), meters);
    // 2 s per answer leaves room for a busy machine; the stalled answers below are held far longer
    tools = Checkout.tools(hfr, new ShopApi(services.baseUri(), Duration.ofSeconds(2)));
  }

  @AfterEach
  void stop() {
    hfr.close();
    services.close();
  }

  @Test
  @DisplayName("orders and pays once, through a lost answer and a rate limit, on the ledger and meters it was given")
  void ordersAndPaysOnce() throws Exception {
    services.plan("POST /orders", InjectedFault.commitThenStall(Duration.ofSeconds(30)));
    services.plan("POST /payments", InjectedFault.rateLimited(1));

    String result = Checkout.checkout(hfr, tools, "cart-1");

    assertThat(result).startsWith("paid 2900 for ");
    assertThat(services.committedOrders()).isEqualTo(1);
    assertThat(services.committedPayments()).isEqualTo(1);
    assertThat(dir.resolve("ledger/ledger.journal")).exists();
    assertThat(meters.find("harness.attempts").meters()).isNotEmpty();
  }

  @Test
  @DisplayName("says the order's outcome is unknown when neither the answer nor the lookup comes, and sends it once")
  void unknownOutcomeIsNotResent() throws Exception {
    services.plan("POST /orders", InjectedFault.commitThenStall(Duration.ofSeconds(30)));
    services.plan("GET /orders", Collections.nCopies(20, InjectedFault.unavailable()).toArray(InjectedFault[]::new));

    String result = Checkout.checkout(hfr, tools, "cart-2");

    assertThat(result).startsWith("unknown: ");
    assertThat(services.committedOrders()).isEqualTo(1);
    assertThat(services.committedPayments()).isZero();
  }

  @Test
  @DisplayName("says why when the order service has withdrawn its endpoint, and nothing is charged")
  void permanentFailureIsReported() throws Exception {
    services.plan("POST /orders", InjectedFault.notImplemented());

    String result = Checkout.checkout(hfr, tools, "cart-3");

    assertThat(result).startsWith("failed: ");
    assertThat(services.committedOrders()).isZero();
    assertThat(services.committedPayments()).isZero();
  }
}
