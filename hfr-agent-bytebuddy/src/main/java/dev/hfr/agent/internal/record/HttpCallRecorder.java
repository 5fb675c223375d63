package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.bootstrap.HttpCallHooks;
import dev.hfr.agent.internal.enforce.RetryEnforcer;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.agent.internal.telemetry.DecisionLog;
import dev.hfr.agent.internal.telemetry.HttpDecisionEvent;
import dev.hfr.runtime.classify.Observation;
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
 * Under enforcement only a synchronous JDK {@code send} of a request that may be repeated is ever sent
 * again; see {@link RetryEnforcer}.
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
    return start(HfrBridge.JDK_HTTP_CLIENT, JdkHttp.method(request), JdkHttp.host(request), JdkHttp.hasIdempotencyKey(request));
  }

  @Override
  public boolean jdkFinish(Object handle, Object response, Throwable thrown) {
    HttpCall call = (HttpCall) handle;
    int status = JdkHttp.status(response);
    Decision decision = finish(call, status, JdkHttp.header(response, "Retry-After"),
        JdkHttp.header(response, "retry-after-ms"), status >= 400 ? JdkHttp.bufferedBody(response) : null, thrown);
    long delay = enforcer == null ? -1 : enforcer.retryDelayNanos(call.host, call.retryable, call.attempt, decision);
    if (delay < 0 || !sleep(delay)) {
      event(call, status, decision, thrown, false, 0);
      return false;
    }
    event(call, status, decision, thrown, true, delay);
    meters.retry(HfrBridge.clientName(call.client), call.host, decision.classTag());
    JdkHttp.discard(response);
    call.attempt++;
    call.attemptStartNanos = System.nanoTime();
    return true;
  }

  @Override
  public void jdkFinishAsync(Object handle, Object future, Throwable thrown) {
    HttpCall call = (HttpCall) handle;
    if (thrown != null || !(future instanceof CompletableFuture<?> cf)) {
      recordFinal(call, 0, null, null, null, thrown);
      return;
    }
    // A dependent stage: the application's future, its value and its exception are untouched.
    cf.whenComplete((response, failure) -> {
      try {
        int status = JdkHttp.status(response);
        recordFinal(call, status, JdkHttp.header(response, "Retry-After"), JdkHttp.header(response, "retry-after-ms"),
            status >= 400 ? JdkHttp.bufferedBody(response) : null, unwrap(failure));
      } catch (Throwable t) {
        HfrBridge.fail(HfrBridge.JDK_HTTP_CLIENT, t);
      }
    });
  }

  // ---- java.net.HttpURLConnection ----

  @Override
  public Object urlConnectionStart(Object connection) {
    if (!urlConnections.firstTime(connection)) {
      return null;
    }
    return start(HfrBridge.HTTP_URL_CONNECTION, UrlConnections.method(connection), UrlConnections.host(connection),
        UrlConnections.hasIdempotencyKey(connection));
  }

  @Override
  public void urlConnectionFinish(Object handle, Object connection, Throwable thrown) {
    int status = UrlConnections.status(connection);
    recordFinal((HttpCall) handle, status, status > 0 ? UrlConnections.retryAfter(connection) : null, null, null,
        status > 0 ? null : thrown);
  }

  // ---- OkHttp, Apache HttpClient 5 ----

  @Override
  public Object libraryStart(int client, String method, String host, boolean idempotencyKey) {
    return start(client, method, host, idempotencyKey);
  }

  @Override
  public void libraryFinish(Object handle, int status, String retryAfter, Throwable thrown) {
    recordFinal((HttpCall) handle, status, retryAfter, null, null, thrown);
  }

  // ----

  private HttpCall start(int client, String method, String host, boolean idempotencyKey) {
    return new HttpCall(client, RequestRisk.methodTag(method), hosts.tag(host), RequestRisk.of(method, idempotencyKey),
        RequestRisk.retryable(method, idempotencyKey), System.nanoTime());
  }

  private void recordFinal(HttpCall call, int status, String retryAfter, String retryAfterMs, String body, Throwable thrown) {
    Decision decision = finish(call, status, retryAfter, retryAfterMs, body, thrown);
    event(call, status, decision, thrown, false, 0);
  }

  /** Classifies and decides one attempt and counts it; the event is written by the caller. */
  private Decision finish(HttpCall call, int status, String retryAfter, String retryAfterMs, String body, Throwable thrown) {
    long latency = System.nanoTime() - call.attemptStartNanos;
    call.latencyNanos = latency;
    Decision decision;
    if (ShadowDecider.plainSuccess(status, thrown)) {
      decision = decider.success(call.risk);
    } else {
      Observation.Builder observation = Observation.builder().latency(Duration.ofNanos(latency)).exception(thrown).body(body);
      if (status > 0) {
        observation.httpStatus(status).header("Retry-After", retryAfter).header("retry-after-ms", retryAfterMs);
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

  private static boolean sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the application's interrupt: stop retrying and keep it set
      return false;
    }
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
