package dev.hfr.inbox.web;

import com.sun.net.httpserver.HttpServer;
import dev.hfr.inbox.web.internal.ApiHandler;
import dev.hfr.inbox.web.internal.Operators;
import dev.hfr.inbox.web.internal.PageHandler;
import dev.hfr.inbox.web.internal.Sessions;
import dev.hfr.runtime.inbox.Inbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * HFR's own small server for the inbox, for applications without Spring Boot: the web page at {@code /} and the HTTP
 * API under {@code /api/items}, on the JDK's HTTP server.
 *
 * <pre>{@code
 * InboxServer server = InboxServer.builder(hfr.inbox())
 *     .operator("ana", System.getenv("HFR_INBOX_TOKEN_ANA"))   // who may answer, and the token they sign in with
 *     .start();                                                 // 127.0.0.1, a free port: server.uri()
 * }</pre>
 *
 * Safe by default: it never starts without an operator's token, binds to loopback unless {@link
 * Builder#bindAddress} says otherwise, takes answers from the page only with the session's CSRF token (and a same-site
 * cookie), and records who answered and when with every answer. Arguments are shown only as the inbox holds them:
 * redacted.
 */
public final class InboxServer implements AutoCloseable {

  /** The shortest token accepted: a guessable token would leave the inbox open. */
  public static final int MIN_TOKEN_LENGTH = 16;

  private final HttpServer server;
  private final ExecutorService executor;

  private InboxServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts a builder for {@code inbox} ({@code hfr.inbox()}). */
  public static Builder builder(Inbox inbox) {
    return new Builder(inbox);
  }

  /** Where the page is, e.g. {@code http://127.0.0.1:8089/}. */
  public URI uri() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/");
  }

  /** Stops serving; the inbox and its engine stay open. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** How the server is set up. */
  public static final class Builder {
    private final Inbox inbox;
    private final Map<String, String> operators = new LinkedHashMap<>();
    private InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private Duration sessionTtl = Duration.ofHours(8);

    private Builder(Inbox inbox) {
      this.inbox = Objects.requireNonNull(inbox, "inbox");
    }

    /**
     * A person who may answer, and the secret token they sign in with (the page) or send as {@code Authorization:
     * Bearer <token>} (the API). Their name is recorded with each answer they give.
     *
     * @throws IllegalArgumentException for a blank name, a token shorter than {@value #MIN_TOKEN_LENGTH} characters,
     *     or a token another operator has
     */
    public Builder operator(String name, String token) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("operator name must not be blank: it is recorded with every answer");
      }
      if (token == null || token.length() < MIN_TOKEN_LENGTH) {
        throw new IllegalArgumentException("the token of operator '" + name + "' must have at least " + MIN_TOKEN_LENGTH
            + " characters (e.g. openssl rand -hex 24): a short token leaves the inbox open to guessing");
      }
      if (operators.containsValue(token)) {
        throw new IllegalArgumentException("operator '" + name + "' has another operator's token: give each their own,"
            + " so answers say who gave them");
      }
      operators.put(name.trim(), token);
      return this;
    }

    /** Where to listen (default: loopback, a free port). Anything but loopback exposes the inbox to the network. */
    public Builder bindAddress(InetSocketAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /** Loopback on {@code port} (0: a free one). */
    public Builder port(int port) {
      return bindAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    /** How long a sign-in on the page lasts (default 8 hours). */
    public Builder sessionTtl(Duration ttl) {
      if (ttl == null || ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("sessionTtl must be positive, was " + ttl);
      }
      this.sessionTtl = ttl;
      return this;
    }

    /**
     * Starts serving.
     *
     * @throws IllegalStateException without an operator: the server never starts open
     * @throws UncheckedIOException when the address cannot be bound
     */
    public InboxServer start() {
      if (operators.isEmpty()) {
        throw new IllegalStateException("the inbox server never starts open: add who may answer with"
            + " InboxServer.builder(inbox).operator(\"name\", token) (a secret of at least " + MIN_TOKEN_LENGTH
            + " characters, e.g. from an environment variable)");
      }
      ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "hfr-inbox-web");
        t.setDaemon(true);
        return t;
      });
      try {
        HttpServer server = HttpServer.create(address, 32);
        Operators ops = new Operators(operators);
        Sessions sessions = new Sessions(sessionTtl);
        server.createContext("/api/", new ApiHandler(inbox, ops));
        server.createContext("/", new PageHandler(inbox, ops, sessions));
        server.setExecutor(executor);
        server.start();
        return new InboxServer(server, executor);
      } catch (IOException e) {
        executor.shutdownNow();
        throw new UncheckedIOException("the inbox server cannot listen on " + address + ": " + e.getMessage()
            + ". Next step: choose another port with port(...) or bindAddress(...)", e);
      }
    }
  }
}
