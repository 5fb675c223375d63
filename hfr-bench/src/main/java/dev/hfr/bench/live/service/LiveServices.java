package dev.hfr.bench.live.service;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The live benchmark's services, each a real HTTP server on 127.0.0.1 with an ephemeral port, sharing
 * one {@link FaultPlan}: an LLM-style endpoint with two model tiers, a search service and its cache
 * (R0), an order service (R2), a payment service (R1) and an e-mail service (R3). Started by
 * {@link #start}, stopped by {@link #close}.
 */
public final class LiveServices implements AutoCloseable {

  public static final String OP_MODEL_PRIMARY = "model.primary";
  public static final String OP_MODEL_BACKUP = "model.backup";
  public static final String OP_SEARCH = "search";
  public static final String OP_ORDER_CREATE = "order.create";
  public static final String OP_ORDER_LOOKUP = "order.lookup";
  public static final String OP_PAYMENT = "payment";
  public static final String OP_EMAIL = "email";

  /** The faults of Table 16 each operation can meet. */
  public static final Map<String, List<WireFault>> TABLE16 = Map.of(
      OP_MODEL_PRIMARY, List.of(WireFault.RATE_LIMITED, WireFault.SERVER_ERROR, WireFault.BAD_GATEWAY, WireFault.UNAVAILABLE,
          WireFault.TIMEOUT, WireFault.OVERLOADED, WireFault.CONTEXT_LENGTH, WireFault.CONTENT_FILTER,
          WireFault.SCHEMA_MISMATCH, WireFault.WRONG_BUT_PLAUSIBLE),
      OP_MODEL_BACKUP, List.of(WireFault.RATE_LIMITED, WireFault.SERVER_ERROR, WireFault.UNAVAILABLE, WireFault.TIMEOUT,
          WireFault.WRONG_BUT_PLAUSIBLE),
      OP_SEARCH, List.of(WireFault.UNAVAILABLE, WireFault.TIMEOUT, WireFault.DROP, WireFault.UNKNOWN_TOOL,
          WireFault.SCHEMA_MISMATCH, WireFault.FORBIDDEN, WireFault.WRONG_BUT_PLAUSIBLE),
      OP_ORDER_CREATE, List.of(WireFault.UNAVAILABLE, WireFault.TIMEOUT, WireFault.COMMIT_THEN_TIMEOUT,
          WireFault.COMMIT_THEN_DROP, WireFault.FORBIDDEN, WireFault.DISK_FULL),
      OP_ORDER_LOOKUP, List.of(WireFault.UNAVAILABLE),
      OP_PAYMENT, List.of(WireFault.UNAVAILABLE, WireFault.RATE_LIMITED, WireFault.TIMEOUT, WireFault.COMMIT_THEN_TIMEOUT,
          WireFault.COMMIT_THEN_DROP, WireFault.FORBIDDEN),
      OP_EMAIL, List.of(WireFault.UNAVAILABLE, WireFault.TIMEOUT, WireFault.COMMIT_THEN_TIMEOUT, WireFault.COMMIT_THEN_DROP));

  private final List<HttpServer> servers = new ArrayList<>();
  private final ExecutorService executor;
  private final EffectLedger models = new EffectLedger();
  private final EffectLedger search = new EffectLedger();
  private final EffectLedger orders = new EffectLedger();
  private final EffectLedger payments = new EffectLedger();
  private final EffectLedger emails = new EffectLedger();
  private URI modelUri;
  private URI searchUri;
  private URI orderUri;
  private URI paymentUri;
  private URI emailUri;

  private LiveServices() {
    this.executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "hfr-bench-service");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts every service on 127.0.0.1.
   *
   * @param holdMillis how long a timeout fault holds a response (longer than the client's timeout)
   */
  public static LiveServices start(FaultPlan plan, long holdMillis) throws IOException {
    LiveServices s = new LiveServices();
    try {
      Wire wire = new Wire(holdMillis);
      s.modelUri = s.serve("/v1/models/", new ModelService(plan, wire, s.models));
      s.searchUri = s.serve("/", new SearchService(plan, wire, s.search));
      s.orderUri = s.serve("/orders", new OrderService(plan, wire, s.orders));
      s.paymentUri = s.serve("/payments", new PaymentService(plan, wire, s.payments));
      s.emailUri = s.serve("/emails", new EmailService(plan, wire, s.emails));
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private URI serve(String path, com.sun.net.httpserver.HttpHandler handler) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    server.createContext(path, handler);
    server.setExecutor(executor);
    server.start();
    servers.add(server);
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public URI modelUri() { return modelUri; }

  public URI searchUri() { return searchUri; }

  public URI orderUri() { return orderUri; }

  public URI paymentUri() { return paymentUri; }

  public URI emailUri() { return emailUri; }

  /** The model endpoint's own record. */
  public EffectLedger models() { return models; }

  public EffectLedger search() { return search; }

  public EffectLedger orders() { return orders; }

  public EffectLedger payments() { return payments; }

  public EffectLedger emails() { return emails; }

  /** What the services billed task {@code task}. */
  public double billed(int task) {
    return models.billed(task) + search.billed(task) + orders.billed(task) + payments.billed(task) + emails.billed(task);
  }

  /** Whether any service recorded {@code responseId} as a wrong answer. */
  public boolean wasWrong(String responseId) {
    return models.wasWrong(responseId) || search.wasWrong(responseId);
  }

  @Override
  public void close() {
    // HttpServer.stop waits for its dispatcher thread (up to a second on JDK 17): stop them all at once
    List<Thread> stopping = new ArrayList<>();
    for (HttpServer server : servers) {
      Thread t = new Thread(() -> server.stop(0), "hfr-bench-service-stop");
      t.start();
      stopping.add(t);
    }
    for (Thread t : stopping) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
