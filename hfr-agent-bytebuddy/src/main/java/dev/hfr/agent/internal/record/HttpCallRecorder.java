package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.bootstrap.HttpCallHooks;
import dev.hfr.agent.internal.enforce.RetryEnforcer;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.agent.internal.telemetry.DecisionLog;
import dev.hfr.agent.internal.telemetry.HttpDecisionEvent;
import dev.hfr.runtime.classify.Observation;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The agent's side of every instrumented call: starts an {@link HttpCall}, and when the call ends
 * classifies what came back, decides what HFR would do (or, under enforcement, does it), counts it in
 * the meters and writes the decision event.
 *
 * <p>In shadow mode nothing the application sees changes: the recorder reads the response and returns.
 * Under enforcement a request the agent may repeat ({@link RequestRisk#retryable}, with a body that can be sent again)
 * is sent again by the client that sent it: the advice runs the JDK's {@code send}, OkHttp's interceptor or Apache's
 * classic {@code doExecute} again, and a JDK {@code sendAsync} or an Apache async {@code execute} is sent again through
 * its client once its attempt ends ({@link AsyncRetries}, {@link ApacheAsyncCall}). See {@link RetryEnforcer} for when.
 */
public final class HttpCallRecorder implements HttpCallHooks {

  private final ShadowDecider decider;
  private final AgentMeters meters;
  private final HostTags hosts;
  private final DecisionLog events;
  private final boolean eventsForSuccesses;
  private final RetryEnforcer enforcer;
  private final String mode;
  private final UrlConnections urlConnections = new UrlConnections();

  /**
   * @param events where decision events go, or {@code null} for nowhere
   * @param enforcer the retry policy, or {@code null} in shadow mode
   */
  public HttpCallRecorder(ShadowDecider decider, AgentMeters meters, HostTags hosts, DecisionLog events,
      boolean eventsForSuccesses, RetryEnforcer enforcer) {
    this.decider = decider;
    this.meters = meters;
    this.hosts = hosts;
    this.events = events;
    this.eventsForSuccesses = eventsForSuccesses;
    this.enforcer = enforcer;
    this.mode = enforcer == null ? "shadow" : "enforce";
  }

  // ---- java.net.http.HttpClient ----

  @Override
  public Object jdkStart(Object request) {
    return start(HfrBridge.JDK_HTTP_CLIENT, JdkHttp.method(request), JdkHttp.host(request), JdkHttp.hasIdempotencyKey(request), true);
  }

  @Override
  public boolean jdkFinish(Object handle, Object response, Throwable thrown) {
    HttpCall call = (HttpCall) handle;
    int status = JdkHttp.status(response);
    String[] headers = status >= 400 ? JdkHttp.rateLimitHeaders(response) : null;
    Decision decision = finish(call, status, headers, status >= 400 ? JdkHttp.bufferedBody(response) : null, thrown);
    long delay = retryDelay(call, decision, headers, false);
    if (delay < 0) {
      event(call, status, decision, thrown, false, 0);
      return false;
    }
    JdkHttp.discard(response);
    return retryAfter(call, status, decision, thrown, delay);
  }

  @Override
  public Object jdkFinishAsync(Object handle, Object client, Object request, Object handler, Object future, Throwable thrown) {
    HttpCall call = (HttpCall) handle;
    if (thrown != null || !(future instanceof CompletableFuture<?> cf)) {
      recordFinal(call, 0, null, null, thrown);
      return future;
    }
    if (enforcer == null || !call.retryable) {
      // A dependent stage: the application's future, its value and its exception are untouched.
      cf.whenComplete(new AsyncObserver(this, call));
      return future;
    }
    CompletableFuture<Object> result = new CompletableFuture<>();
    new AsyncRetries(this, call, client, request, handler, result).watch(cf);
    return result;
  }

  /** The end of a {@code sendAsync} attempt: decides whether to send it again; false when it was the last. */
  boolean asyncAttemptEnded(HttpCall call, Object response, Throwable failure, boolean retryPossible) {
    int status = JdkHttp.status(response);
    String[] headers = status >= 400 ? JdkHttp.rateLimitHeaders(response) : null;
    Throwable cause = unwrap(failure);
    Decision decision = finish(call, status, headers, status >= 400 ? JdkHttp.bufferedBody(response) : null, cause);
    long delay = retryPossible ? retryDelay(call, decision, headers, false) : -1;
    if (delay < 0) {
      event(call, status, decision, cause, false, 0);
      return false;
    }
    JdkHttp.discard(response);
    event(call, status, decision, cause, true, delay);
    meters.retry(HfrBridge.clientName(call.client), call.host, decision.classTag());
    call.pendingDelayNanos = delay;
    return true;
  }

  // ---- java.net.HttpURLConnection ----

  @Override
  public Object urlConnectionStart(Object connection) {
    if (!urlConnections.firstTime(connection)) {
      return null;
    }
    return start(HfrBridge.HTTP_URL_CONNECTION, UrlConnections.method(connection), UrlConnections.host(connection),
        UrlConnections.hasIdempotencyKey(connection), false);
  }

  @Override
  public void urlConnectionFinish(Object handle, Object connection, Throwable thrown) {
    int status = UrlConnections.status(connection);
    String[] headers = null;
    if (status > 0) {
      headers = new String[RateLimitHeaders.NAMES.length];
      headers[0] = UrlConnections.retryAfter(connection);
    }
    recordFinal((HttpCall) handle, status, headers, null, status > 0 ? null : thrown);
  }

  // ---- OkHttp, Apache HttpClient 5 ----

  @Override
  public Object libraryStart(int client, String method, String host, boolean idempotencyKey, boolean resendable) {
    return start(client, method, host, idempotencyKey, resendable);
  }

  @Override
  public boolean libraryFinish(Object handle, Object response, int status, String[] headers, Throwable thrown, boolean canceled) {
    HttpCall call = (HttpCall) handle;
    Decision decision = finish(call, status, headers, null, thrown);
    long delay = retryDelay(call, decision, headers, canceled);
    if (delay < 0) {
      event(call, status, decision, thrown, false, 0);
      return false;
    }
    close(response); // before the wait: the connection goes back to the pool
    return retryAfter(call, status, decision, thrown, delay);
  }

  // ---- Apache HttpClient 5 async

  @Override
  public Object[] apacheAsyncStart(Object client, Object target, Object producer, Object consumer, Object pushHandlerFactory,
      Object context, Object callback, Class<?>[] types) {
    ApacheAsyncCall call = new ApacheAsyncCall(this, enforcer != null, client, target, producer, consumer, pushHandlerFactory,
        context, callback, types);
    return new Object[] {call, call.producerProxy, call.consumerProxy, call.callbackProxy};
  }

  @Override
  public Object apacheAsyncFinish(Object call, Object future, Throwable thrown) {
    return ((ApacheAsyncCall) call).returned(future, thrown);
  }

  /**
   * The end of an async library attempt (its response's head, or its failure): classifies and records it, and answers
   * how long to wait before sending it again, or -1 when it is the last.
   *
   * @param last whether the attempt cannot be sent again whatever its outcome (shadow mode, a cancelled call)
   */
  long asyncLibraryAttemptEnded(HttpCall call, int status, String[] headers, Throwable thrown, boolean last) {
    Decision decision = finish(call, status, headers, null, thrown);
    long delay = retryDelay(call, decision, headers, last);
    event(call, status, decision, thrown, delay >= 0, Math.max(delay, 0));
    if (delay >= 0) {
      meters.retry(HfrBridge.clientName(call.client), call.host, decision.classTag());
    }
    return delay;
  }

  // ----

  private HttpCall start(int client, String method, String host, boolean idempotencyKey, boolean resendable) {
    return new HttpCall(client, RequestRisk.methodTag(method), hosts.tag(host), RequestRisk.of(method, idempotencyKey),
        resendable && RequestRisk.retryable(method, idempotencyKey), System.nanoTime());
  }

  /** How long to wait before sending the attempt again under enforcement, or -1 when it is not sent again. */
  private long retryDelay(HttpCall call, Decision decision, String[] headers, boolean canceled) {
    if (enforcer == null || canceled) {
      return -1;
    }
    return enforcer.retryDelayNanos(call.host, call.retryable, call.attempt, decision,
        RateLimitHeaders.anthropicResetMillis(headers, System.currentTimeMillis()));
  }

  /** Records the attempt as retried, waits out the delay and starts the next attempt; false when interrupted. */
  private boolean retryAfter(HttpCall call, int status, Decision decision, Throwable thrown, long delayNanos) {
    if (!sleep(delayNanos)) {
      event(call, status, decision, thrown, false, 0);
      return false;
    }
    event(call, status, decision, thrown, true, delayNanos);
    meters.retry(HfrBridge.clientName(call.client), call.host, decision.classTag());
    nextAttempt(call);
    return true;
  }

  static void nextAttempt(HttpCall call) {
    call.attempt++;
    call.attemptStartNanos = System.nanoTime();
  }

  void recordFinal(HttpCall call, int status, String[] headers, String body, Throwable thrown) {
    Decision decision = finish(call, status, headers, body, thrown);
    event(call, status, decision, thrown, false, 0);
  }

  /** Classifies and decides one attempt and counts it; the event is written by the caller. */
  private Decision finish(HttpCall call, int status, String[] headers, String body, Throwable thrown) {
    long latency = System.nanoTime() - call.attemptStartNanos;
    call.latencyNanos = latency;
    Decision decision;
    if (ShadowDecider.plainSuccess(status, thrown)) {
      decision = decider.success(call.risk);
    } else {
      Observation.Builder observation = Observation.builder().latency(Duration.ofNanos(latency)).exception(thrown).body(body);
      if (status > 0) {
        observation.httpStatus(status);
        RateLimitHeaders.addTo(observation, headers);
      }
      decision = decider.decide(observation.build(), call.risk);
    }
    meters.attempt(HfrBridge.clientName(call.client), call.host, call.method, decision, latency);
    if (enforcer != null) {
      enforcer.onAttempt(call.host, decision, latency);
    }
    return decision;
  }

  private void event(HttpCall call, int status, Decision decision, Throwable thrown, boolean enforced, long delayNanos) {
    if (events == null || (decision.success() && !eventsForSuccesses)) {
      return;
    }
    long latency = call.latencyNanos;
    events.record(new HttpDecisionEvent(
        System.currentTimeMillis(), mode, HfrBridge.clientName(call.client), call.host, call.method, call.risk.name(),
        call.attempt, status,
        decision.success() ? null : decision.fault().name(),
        decision.classification().confidence(),
        decision.classification().rule(),
        thrown == null ? null : thrown.getClass().getName(),
        decision.success() ? null : decision.action().name(),
        enforced,
        TimeUnit.NANOSECONDS.toMillis(delayNanos),
        decision.classification().retryAfterMillis(),
        latency / 1_000_000.0));
  }

  /** Closes a library response the application will never see (an enforced retry replaces it). */
  private static void close(Object response) {
    if (response instanceof Closeable c) {
      try {
        c.close();
      } catch (Exception ignored) {
        // the response is dropped either way
      }
    }
  }

  private static boolean sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the application's interrupt: stop retrying and keep it set
      return false;
    }
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
