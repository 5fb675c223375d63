package dev.hfr.samples.compensate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.CommittedWrite;
import dev.hfr.runtime.Compensation;
import dev.hfr.runtime.CompensationException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.CompensationKeys;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor-generated proxy's compensate hook, end to end: {@code Bookings_Recovering} on the real engine
 * and the embedded ledger file, against a real hotel service on 127.0.0.1 that records every booking,
 * cancellation and mail.
 */
@DisplayName("A generated proxy's writes are compensated through the engine")
class GeneratedProxyCompensationTest {

  private HttpServer hotel;
  private final Map<String, String> bookings = new ConcurrentHashMap<>();
  private final Map<String, String> cancellations = new ConcurrentHashMap<>();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final List<DecisionEvent> events = new CopyOnWriteArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private EmbeddedFileLedger ledger;
  private Hfr hfr;
  private Bookings bookingsTool;

  @BeforeEach
  void start(@TempDir Path dir) throws IOException {
    hotel = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    hotel.createContext("/", this::handle);
    hotel.start();
    ledger = EmbeddedFileLedger.open(dir, LedgerOptions.defaults().withForcePolicy(ForcePolicy.OS_BUFFERED));
    hfr = Hfr.builder().ledger(ledger).decisionSink(events::add).meterRegistry(registry).build();
    bookingsTool = Bookings_Recovering.create(hfr, URI.create("http://127.0.0.1:" + hotel.getAddress().getPort()));
  }

  @AfterEach
  void stop() {
    hfr.close();
    ledger.close();
    hotel.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> q = new ConcurrentHashMap<>();
      for (String pair : exchange.getRequestURI().getRawQuery().split("&")) {
        String[] kv = pair.split("=", 2);
        q.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
      }
      String slot = q.get("guest") + "/" + q.get("night");
      String path = exchange.getRequestURI().getPath();
      boolean post = exchange.getRequestMethod().equals("POST");
      String body;
      if (post) {
        log.add(path + " " + slot);
      }
      switch (path) {
        case "/bookings" -> body = post ? bookings.computeIfAbsent(slot + "#" + ids.incrementAndGet(), k -> "bk-" + ids.get())
            : bookings.entrySet().stream().filter(e -> e.getKey().startsWith(slot + "#")).map(Map.Entry::getValue).findFirst().orElse("");
        case "/cancellations" -> body = post ? cancellations.computeIfAbsent(slot, k -> "cx-" + ids.incrementAndGet())
            : cancellations.getOrDefault(slot, "");
        case "/mail" -> body = "mailed";
        default -> body = "";
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  @Test
  @DisplayName("compensateAll cancels each booking the task made, the last first, through the generated compensate hook")
  void rollsBackThroughTheGeneratedHook() throws Exception {
    List<Compensation> undone;
    List<CommittedWrite> writes;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "trip-1").build())) {
      bookingsTool.book("ann", "2026-12-01");
      bookingsTool.book("ann", "2026-12-02");
      undone = task.compensateAll();
      writes = task.committedWrites();
    }

    assertThat(log).containsExactly(
        "/bookings ann/2026-12-01", "/bookings ann/2026-12-02",
        "/cancellations ann/2026-12-02", "/cancellations ann/2026-12-01");
    assertThat(undone).extracting(Compensation::tool).containsOnly("Bookings.book");
    assertThat(undone).extracting(Compensation::compensateMethod).containsOnly("cancelBooking");
    assertThat(writes).extracting(CommittedWrite::state).containsOnly(LedgerState.COMPENSATED);
    for (Compensation c : undone) {
      assertThat(ledger.find("acme", c.compensationKey()).orElseThrow())
          .satisfies(r -> assertThat(r.tool()).isEqualTo("Bookings.cancelBooking"))
          .satisfies(r -> assertThat(r.state()).isEqualTo(LedgerState.COMMITTED));
      assertThat(c.compensationKey()).isEqualTo(CompensationKeys.of(c.ledgerKey()));
    }
    assertThat(events).filteredOn(e -> e.action() == Action.COMPENSATE).extracting(DecisionEvent::step).containsExactly(2L, 1L);
    assertThat(registry.get("harness.compensations").tag("tool", "Bookings.book").tag("outcome", "compensated").counter().count())
        .isEqualTo(2.0);
  }

  @Test
  @DisplayName("a write whose tool has no compensate method is refused by name, key and state, and nothing is cancelled")
  void refusesTheIrreversibleMail() throws Exception {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "trip-2").build())) {
      bookingsTool.book("bob", "2026-12-03");
      bookingsTool.sendConfirmation("bob", "2026-12-03");
      CommittedWrite mail = task.committedWrites().get(1);

      CompensationException e = catchThrowableOfType(CompensationException.class, task::compensateAll);

      assertThat(e.reason()).isEqualTo(Reason.NOT_COMPENSABLE);
      assertThat(e).hasMessageContaining("Bookings.sendConfirmation").hasMessageContaining(mail.ledgerKey())
          .hasMessageContaining("COMMITTED").hasMessageContaining("declares no compensate method");
      assertThat(task.committedWrites()).extracting(CommittedWrite::state).containsOnly(LedgerState.COMMITTED);
      // The booking alone can still be undone.
      assertThat(task.compensate(task.committedWrites().get(0).ledgerKey()).compensateMethod()).isEqualTo("cancelBooking");
    }
    assertThat(log).containsExactly("/bookings bob/2026-12-03", "/mail bob/2026-12-03", "/cancellations bob/2026-12-03");
  }
}
