package dev.hfr.runtime.ledger;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP/1.1 order service on 127.0.0.1 for the kill test, written on plain sockets so it can do
 * what a flaky service does: commit an order, then reset the connection instead of answering.
 *
 * <ul>
 *   <li>{@code POST /r1/orders} with {@code Idempotency-Key} and body {@code ref}: an R1 write. The first
 *       request with a key creates the order; later ones return it without creating another.
 *   <li>{@code POST /r2/orders} with body {@code ref}: an R2 write, not idempotent: every request creates an
 *       order.
 *   <li>{@code GET /orders?ref=...}: the reconcile query: 200 if an order with that ref exists, else 404.
 * </ul>
 *
 * It counts the orders created per ref: the test's ground truth for duplicates and losses.
 */
final class OrderService implements AutoCloseable {

  private final ServerSocket server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "order-service");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Integer> ordersByRef = new HashMap<>();
  private final Map<String, String> refByIdempotencyKey = new HashMap<>();
  private final Random random;
  private final double dropRate;
  private final AtomicInteger writes = new AtomicInteger();
  private final AtomicInteger drops = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger openConnections = new AtomicInteger();

  OrderService(long seed, double dropRate) throws IOException {
    this.random = new Random(seed);
    this.dropRate = dropRate;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    threads.execute(this::acceptLoop);
  }

  int port() {
    return server.getLocalPort();
  }

  /** Write requests received (R1 and R2, retries included). */
  int writes() {
    return writes.get();
  }

  /** Connections reset after committing. */
  int drops() {
    return drops.get();
  }

  synchronized int ordersFor(String ref) {
    return ordersByRef.getOrDefault(ref, 0);
  }

  synchronized Map<String, Integer> orders() {
    return new HashMap<>(ordersByRef);
  }

  /** Requests of any kind received (writes, reconcile queries): the test's sign that a driver is making progress. */
  int requests() {
    return requests.get();
  }

  /**
   * Waits until every request a killed client had sent has been handled, however loaded the machine: reconciliation
   * is only as good as the query it asks, and a request still in flight would make it lie. The listening socket hands
   * out connections in the order they arrived, so once a fresh probe connection is answered every earlier one has
   * been accepted; each of those ends when the server has handled what the dead client sent and read its end of
   * stream. Bounded by a minute only against a hang.
   */
  void awaitQuiet() throws IOException, InterruptedException {
    try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port())) {
      probe.getOutputStream().write("GET /orders?ref=quiet-probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      probe.getOutputStream().flush();
      if (readLine(new BufferedInputStream(probe.getInputStream())) == null) {
        throw new IOException("the order service closed the quiet probe without an answer");
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (openConnections.get() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(openConnections.get() + " connections still open a minute after the client was killed");
      }
      Thread.sleep(2);
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        openConnections.incrementAndGet(); // before the next accept: awaitQuiet relies on it
        threads.execute(() -> serve(s));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      serveRequests(socket);
    } catch (IOException e) {
      // the client went away (killed, or timed out); whatever was committed stays committed
    } finally {
      openConnections.decrementAndGet();
    }
  }

  private void serveRequests(Socket socket) throws IOException {
    InputStream in = new BufferedInputStream(socket.getInputStream());
    OutputStream out = socket.getOutputStream();
    while (true) {
      String requestLine = readLine(in);
      if (requestLine == null || requestLine.isEmpty()) {
        return;
      }
      requests.incrementAndGet();
      if (!handle(requestLine, in, out, socket)) {
        return;
      }
    }
  }

  /** Handles one request; false when the connection was dropped. */
  private boolean handle(String requestLine, InputStream in, OutputStream out, Socket socket) throws IOException {
    String[] parts = requestLine.split(" ");
    Map<String, String> headers = new HashMap<>();
    for (String h = readLine(in); h != null && !h.isEmpty(); h = readLine(in)) {
      int colon = h.indexOf(':');
      headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
    if (body.length() != length) {
      return false; // the client died mid-request: nothing committed
    }
    String method = parts[0];
    String path = parts[1];
    if (method.equals("GET") && path.startsWith("/orders?ref=")) {
      String ref = path.substring("/orders?ref=".length());
      int n = ordersFor(ref);
      respond(out, n > 0 ? 200 : 404, n > 0 ? "order " + ref : "no order " + ref);
      return true;
    }
    if (method.equals("POST") && (path.equals("/r1/orders") || path.equals("/r2/orders"))) {
      writes.incrementAndGet();
      boolean drop;
      synchronized (this) {
        if (path.equals("/r1/orders")) {
          String key = headers.get("idempotency-key");
          if (key == null) {
            respond(out, 400, "Idempotency-Key required");
            return true;
          }
          if (refByIdempotencyKey.putIfAbsent(key, body) == null) {
            ordersByRef.merge(body, 1, Integer::sum);
          }
        } else {
          ordersByRef.merge(body, 1, Integer::sum);
        }
        drop = random.nextDouble() < dropRate;
      }
      if (drop) {
        drops.incrementAndGet();
        try {
          socket.setSoLinger(true, 0); // reset: the client sees the connection die with no answer
        } catch (SocketException ignored) {
          // closing is enough
        }
        return false;
      }
      respond(out, 201, "order " + body);
      return true;
    }
    respond(out, 404, "no such endpoint");
    return true;
  }

  private static void respond(OutputStream out, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + (status < 300 ? " OK" : " Error") + "\r\nContent-Type: text/plain\r\nContent-Length: " + b.length
        + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(b);
    out.flush();
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        break;
      }
      if (c != '\r') {
        line.write(c);
      }
    }
    if (c == -1 && line.size() == 0) {
      return null;
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
  }
}
