package dev.hfr.runtime.classify;

import static dev.hfr.runtime.classify.internal.TextSignals.AUTH;
import static dev.hfr.runtime.classify.internal.TextSignals.CONTENT;
import static dev.hfr.runtime.classify.internal.TextSignals.CONTEXT;
import static dev.hfr.runtime.classify.internal.TextSignals.INVALID;
import static dev.hfr.runtime.classify.internal.TextSignals.OVERLOADED;
import static dev.hfr.runtime.classify.internal.TextSignals.QUOTA;
import static dev.hfr.runtime.classify.internal.TextSignals.RATE;
import static dev.hfr.runtime.classify.internal.TextSignals.REFUSED;
import static dev.hfr.runtime.classify.internal.TextSignals.RESET;
import static dev.hfr.runtime.classify.internal.TextSignals.SERVER;
import static dev.hfr.runtime.classify.internal.TextSignals.TIMEOUT;
import static dev.hfr.runtime.classify.internal.TextSignals.TOOL;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.classify.internal.ExceptionKind;
import dev.hfr.runtime.classify.internal.TextSignals;
import dev.hfr.runtime.time.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The F2D-9 classifier of the paper's Tables 2, 4 and 11, with the real signals of OpenAI, Azure
 * OpenAI and Anthropic. Thread-safe, never throws, and allocation-free on most paths (every answer
 * without a Retry-After or a compound fault is a shared constant).
 *
 * <p>How it reads an {@link Observation}:
 * <ol>
 *   <li>The exception's whole cause chain is walked (at most {@value #MAX_CAUSE_DEPTH} links, so a
 *       self-referencing chain ends). The first {@link ObservableFailure} found supplies the status,
 *       headers and body the observation lacks; the exception types found are ranked (a JDK transport
 *       type beats a programming-error type beats a hint in an SDK class name; the deepest wins ties).
 *   <li>A 4xx/5xx status decides, refined by the body where providers put the real reason behind a
 *       misleading code (the paper's first tricky case): a 429 that is a quota ({@code insufficient_quota},
 *       spend or billing limit) is T7, not T2; a 500/503 saying {@code overloaded} is T4; a 400 saying
 *       {@code context_length_exceeded} is T6 and one saying {@code content_filter} is T8.
 *   <li>Without an error status, the exception decides; exception messages are scanned for the same
 *       provider phrases when the type says little (an SDK exception carrying the response body).
 *   <li>Then the finish reason ({@code content_filter}, {@code refusal}: T8), a verifier's rejection (V1),
 *       an error object inside a 2xx body, and an empty 2xx body where one was expected (T3, low
 *       confidence: providers have turned timeouts into empty 200s).
 * </ol>
 *
 * <p>Compound faults (the paper's second tricky case) get a primary and a secondary class; the primary is
 * the class whose action must come first because the other's would be unsafe or useless: T8, then T7,
 * then T3 (outcome unknown), T6 (resending unchanged fails again), T5, T4, T2, T1. A 429 with a context
 * overflow is T6 with secondary T2, and keeps the Retry-After.
 *
 * <p>Bodies and messages are read only in their first {@value TextSignals#SCAN_LIMIT} chars, in one
 * case-insensitive pass that also notices whether a phrase was a JSON {@code "type"}/{@code "code"}
 * value (a provider's machine-readable code, answered with a higher confidence than prose).
 *
 * <p>409 Conflict is T3 with a low confidence, not a blind retry: it says the server's state differs
 * from what the request assumed — often because an earlier attempt of this very write (or a concurrent
 * one) already landed. T3 sends writes to reconciliation and lets reads retry.
 *
 * <p>Persistent 5xx is classified T1 here, call by call; turning a run of them into an open circuit
 * (and degradation instead of retries) is the circuit breaker's job, not the classifier's.
 *
 * <p>A rule that fails (a hostile {@code getMessage()}, a broken {@code ObservableFailure}) is answered
 * UNCLASSIFIED with confidence 0 and rule {@value #RULE_CLASSIFIER_ERROR}, and counted in
 * {@link #errorCount()} — never swallowed silently. Only {@link OutOfMemoryError} and other
 * {@link VirtualMachineError}s but {@link StackOverflowError} propagate: the JVM is then unusable anyway.
 */
public final class DefaultFailureClassifier implements FailureClassifier, MeterBinder {

  /** The rule id of an answer given because a rule itself failed. */
  public static final String RULE_CLASSIFIER_ERROR = "classifier.error";

  /**
   * The rule id of a plain HTTP 503 (T1): refused before processing (RFC 9110 §15.6.4), so the engine reads it as
   * proof that a write was not applied ({@link dev.hfr.runtime.action.ActionTable#provesNotApplied(Fault,
   * Classification)}).
   */
  public static final String RULE_SERVICE_UNAVAILABLE = "http.503";

  /** How many links of a cause chain are read; bounds self-referencing chains. */
  public static final int MAX_CAUSE_DEPTH = 32;

  /** An empty 2xx body after at least this long reads as a swallowed timeout with more confidence. */
  public static final Duration DEFAULT_SLOW_CALL = Duration.ofSeconds(10);

  private static final int SPECIFIC = CONTENT | QUOTA | CONTEXT | TOOL | OVERLOADED;

  // ---- answers, one shared constant per rule ---------------------------------------------------------
  static final Classification CLASSIFIER_ERROR = c(Fault.UNCLASSIFIED, 0.0, null, RULE_CLASSIFIER_ERROR);
  static final Classification NO_OBSERVATION = c(Fault.UNCLASSIFIED, 0.0, null, "observation.null");
  static final Classification NO_SIGNAL = c(Fault.UNCLASSIFIED, 0.0, null, "observation.no-signal");
  static final Classification INVALID_STATUS = c(Fault.UNCLASSIFIED, 0.2, null, "http.invalid-status");
  static final Classification UNEXPECTED_STATUS = c(Fault.UNCLASSIFIED, 0.3, null, "http.unexpected-status");

  static final Classification HTTP_429 = c(Fault.T2, 0.9, null, "http.429");
  static final Classification HTTP_429_RETRY_AFTER = c(Fault.T2, 0.95, null, "http.429.retry-after");
  static final Classification HTTP_429_QUOTA_CODE = c(Fault.T7, 0.95, Fault.T2, "http.429.quota");
  static final Classification HTTP_429_QUOTA_TEXT = c(Fault.T7, 0.85, Fault.T2, "http.429.quota");
  static final Classification HTTP_429_CONTEXT = c(Fault.T6, 0.85, Fault.T2, "http.429.context-length");
  static final Classification HTTP_529 = c(Fault.T4, 0.95, null, "http.529");
  static final Classification HTTP_5XX = c(Fault.T1, 0.9, null, "http.5xx");
  /** Refused before processing (RFC 9110): the engine reads it as proof that a write was not applied. */
  static final Classification HTTP_503 = c(Fault.T1, 0.9, null, RULE_SERVICE_UNAVAILABLE);
  static final Classification HTTP_504 = c(Fault.T1, 0.85, Fault.T3, "http.504");
  static final Classification HTTP_5XX_OVERLOADED_CODE = c(Fault.T4, 0.9, Fault.T1, "http.5xx.overloaded");
  static final Classification HTTP_5XX_OVERLOADED_TEXT = c(Fault.T4, 0.8, Fault.T1, "http.5xx.overloaded");
  static final Classification HTTP_5XX_CONTEXT = c(Fault.T6, 0.75, Fault.T1, "http.5xx.context-length");
  static final Classification HTTP_5XX_CONTENT = c(Fault.T8, 0.75, Fault.T1, "http.5xx.content-policy");
  static final Classification HTTP_501 = c(Fault.T5, 0.85, null, "http.501");
  static final Classification HTTP_505 = c(Fault.T7, 0.8, null, "http.505");
  static final Classification HTTP_400 = c(Fault.T7, 0.9, null, "http.400");
  static final Classification HTTP_400_CONTEXT_CODE = c(Fault.T6, 0.95, null, "http.400.context-length");
  static final Classification HTTP_400_CONTEXT_TEXT = c(Fault.T6, 0.85, null, "http.400.context-length");
  static final Classification HTTP_400_CONTENT_CODE = c(Fault.T8, 0.95, null, "http.400.content-policy");
  static final Classification HTTP_400_CONTENT_TEXT = c(Fault.T8, 0.85, null, "http.400.content-policy");
  static final Classification HTTP_400_QUOTA = c(Fault.T7, 0.95, null, "http.400.quota");
  static final Classification HTTP_400_TOOL = c(Fault.T5, 0.8, null, "http.400.tool-contract");
  static final Classification HTTP_401 = c(Fault.T7, 0.95, null, "http.401");
  static final Classification HTTP_403 = c(Fault.T7, 0.95, null, "http.403");
  static final Classification HTTP_403_CONTENT = c(Fault.T8, 0.85, null, "http.403.content-policy");
  static final Classification HTTP_404 = c(Fault.T5, 0.6, null, "http.404");
  static final Classification HTTP_404_TOOL = c(Fault.T5, 0.9, null, "http.404.unknown-tool");
  static final Classification HTTP_4XX_CONTRACT = c(Fault.T5, 0.7, null, "http.4xx.contract");
  static final Classification HTTP_408 = c(Fault.T3, 0.9, null, "http.408");
  static final Classification HTTP_409 = c(Fault.T3, 0.6, null, "http.409.conflict");
  static final Classification HTTP_413 = c(Fault.T6, 0.8, null, "http.413");
  static final Classification HTTP_422 = c(Fault.T5, 0.7, null, "http.422.contract");
  static final Classification HTTP_4XX_TRANSIENT = c(Fault.T1, 0.5, null, "http.4xx.transient");
  static final Classification HTTP_451 = c(Fault.T8, 0.9, null, "http.451");
  static final Classification HTTP_4XX = c(Fault.T7, 0.6, null, "http.4xx");

  static final Classification EX_CONNECT_TIMEOUT = c(Fault.T1, 0.85, Fault.T3, "exception.connect-timeout");
  static final Classification EX_TIMEOUT = c(Fault.T3, 0.9, null, "exception.timeout");
  static final Classification EX_INTERRUPTED_IO = c(Fault.T3, 0.8, null, "exception.interrupted-io");
  static final Classification EX_CONNECT = c(Fault.T1, 0.9, null, "exception.connect-refused");
  static final Classification EX_NO_ROUTE = c(Fault.T1, 0.85, null, "exception.no-route");
  static final Classification EX_UNKNOWN_HOST = c(Fault.T1, 0.8, null, "exception.unknown-host");
  static final Classification EX_TLS_HANDSHAKE = c(Fault.T7, 0.85, null, "exception.tls-handshake");
  static final Classification EX_TLS_DROPPED = c(Fault.T1, 0.6, null, "exception.tls-handshake-dropped");
  static final Classification EX_TLS = c(Fault.T3, 0.5, Fault.T1, "exception.tls");
  static final Classification EX_EOF = c(Fault.T3, 0.75, Fault.T1, "exception.eof");
  static final Classification EX_CLOSED = c(Fault.T3, 0.7, Fault.T1, "exception.closed");
  static final Classification EX_RESET = c(Fault.T3, 0.75, Fault.T1, "exception.connection-reset");
  static final Classification EX_SOCKET = c(Fault.T3, 0.6, Fault.T1, "exception.socket");
  static final Classification EX_INTERRUPTED = c(Fault.T3, 0.5, null, "exception.interrupted");
  static final Classification EX_CANCELLED = c(Fault.T3, 0.4, null, "exception.cancelled");
  static final Classification EX_REJECTED = c(Fault.T4, 0.6, null, "exception.rejected");
  static final Classification EX_ILLEGAL_ARGUMENT = c(Fault.T7, 0.6, null, "exception.illegal-argument");
  static final Classification EX_UNSUPPORTED = c(Fault.T5, 0.6, null, "exception.unsupported");
  static final Classification EX_ACCESS_DENIED = c(Fault.T7, 0.7, null, "exception.access-denied");
  static final Classification EX_RESPONSE_FORMAT = c(Fault.T5, 0.6, null, "exception.response-format");
  static final Classification EX_NAMED_RATE_LIMIT = c(Fault.T2, 0.7, null, "exception.named.rate-limit");
  static final Classification EX_NAMED_OVERLOADED = c(Fault.T4, 0.7, null, "exception.named.overloaded");
  static final Classification EX_NAMED_CONTENT = c(Fault.T8, 0.7, null, "exception.named.content-policy");
  static final Classification EX_NAMED_CONTEXT = c(Fault.T6, 0.7, null, "exception.named.context-length");
  static final Classification EX_NAMED_AUTH = c(Fault.T7, 0.7, null, "exception.named.auth");
  static final Classification EX_NAMED_INVALID = c(Fault.T7, 0.65, null, "exception.named.invalid-request");
  static final Classification EX_NAMED_NOT_FOUND = c(Fault.T5, 0.6, null, "exception.named.not-found");
  static final Classification EX_NAMED_SERVER = c(Fault.T1, 0.65, null, "exception.named.server-error");
  static final Classification EX_NAMED_TIMEOUT = c(Fault.T3, 0.65, null, "exception.named.timeout");
  static final Classification EX_UNRECOGNIZED = c(Fault.UNCLASSIFIED, 0.3, null, "exception.unrecognized");

  static final Classification FINISH_CONTENT_FILTER = c(Fault.T8, 0.95, null, "finish.content-filter");
  static final Classification FINISH_REFUSAL = c(Fault.T8, 0.95, null, "finish.refusal");
  static final Classification FINISH_CONTEXT_WINDOW = c(Fault.T6, 0.9, null, "finish.context-window");
  static final Classification FINISH_LENGTH = c(Fault.T6, 0.5, Fault.V1, "finish.length");
  static final Classification FINISH_MALFORMED_CALL = c(Fault.T5, 0.7, null, "finish.malformed-tool-call");
  static final Classification FINISH_ERROR = c(Fault.T1, 0.5, null, "finish.error");
  static final Classification VERIFIER_REJECTED = c(Fault.V1, 0.9, null, "verifier.rejected");
  static final Classification EMPTY_2XX = c(Fault.T3, 0.4, null, "http.2xx.empty-body");
  static final Classification EMPTY_2XX_SLOW = c(Fault.T3, 0.6, null, "http.2xx.empty-body.slow");
  static final Classification HTTP_2XX_REFUSAL = c(Fault.T8, 0.9, null, "http.2xx.refusal");
  static final Classification BODY_UNRECOGNIZED = c(Fault.UNCLASSIFIED, 0.2, null, "body.unrecognized");

  /** Text categories in the order a compound is resolved (the first present is the primary). */
  private static final int[] PRIORITY = {CONTENT, QUOTA, AUTH, CONTEXT, TOOL, REFUSED, TIMEOUT, RESET, OVERLOADED,
      RATE, SERVER, INVALID};
  private static final Fault[] PRIORITY_FAULT = {Fault.T8, Fault.T7, Fault.T7, Fault.T6, Fault.T5, Fault.T1, Fault.T3,
      Fault.T3, Fault.T4, Fault.T2, Fault.T1, Fault.T7};
  private static final String[] PRIORITY_NAME = {"content-policy", "quota", "auth", "context-length", "tool-contract",
      "connection-refused", "timeout", "connection-reset", "overloaded", "rate-limit", "server-error",
      "invalid-request"};
  private static final Classification[] MESSAGE_RULES = textRules("exception.message.", 0.6);
  private static final Classification[] BODY_RULES = textRules("body.", 0.7);

  private final Clock clock;
  private final Duration slowCall;
  private final LongAdder errors = new LongAdder();
  private volatile Throwable lastError;

  /** A classifier on the system clock (only read to turn a Retry-After HTTP-date into a delay). */
  public DefaultFailureClassifier() {
    this(Clock.system(), DEFAULT_SLOW_CALL);
  }

  /** A classifier on the given clock; Retry-After dates are relative to {@link Clock#epochMillis()}. */
  public DefaultFailureClassifier(Clock clock) {
    this(clock, DEFAULT_SLOW_CALL);
  }

  /**
   * @param clock the wall clock Retry-After HTTP-dates are measured against
   * @param slowCall an empty 2xx body after at least this long is a likely swallowed timeout
   */
  public DefaultFailureClassifier(Clock clock, Duration slowCall) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (slowCall == null || slowCall.isNegative()) {
      throw new IllegalArgumentException("slowCall must be a non-negative duration, was " + slowCall);
    }
    this.slowCall = slowCall;
  }

  /** How many classifications ended in {@value #RULE_CLASSIFIER_ERROR} because a rule failed. */
  public long errorCount() {
    return errors.sum();
  }

  /** The name of the counter {@link #bindTo} registers. */
  public static final String ERRORS_METER = "harness.classifier.errors";

  /**
   * Registers {@value #ERRORS_METER}: classifications answered {@value #RULE_CLASSIFIER_ERROR} because a
   * rule failed. It should stay at 0; anything else is a bug worth a look at {@link #lastError()}.
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder(ERRORS_METER, errors, LongAdder::sum)
        .description("Classifications that fell back to UNCLASSIFIED because a classifier rule failed")
        .baseUnit("classifications")
        .register(registry);
  }

  /** The last failure of a rule, for diagnosis, or {@code null}. */
  public Throwable lastError() {
    return lastError;
  }

  @Override
  public Classification classify(Observation observation) {
    try {
      return classifyOrThrow(observation);
    } catch (VirtualMachineError e) {
      if (!(e instanceof StackOverflowError)) {
        throw e; // out of memory: nothing sensible can follow
      }
      return failed(e);
    } catch (Throwable e) { // a failing rule must never fail the call being classified
      return failed(e);
    }
  }

  /**
   * Classifies a failure that is only {@code exception}, after {@code latencyNanos}: the answer {@link
   * #classify(Observation)} gives for {@code Observation.builder().exception(exception).latency(...).build()},
   * without building that observation (the engine classifies every failed attempt this way). A {@code null}
   * exception is classified as the empty observation it stands for.
   *
   * @param exception what the attempt threw
   * @param latencyNanos how long the attempt took
   * @return the class; never {@code null}, never throws (as {@link #classify(Observation)})
   */
  public Classification classifyException(Throwable exception, long latencyNanos) {
    try {
      return exception == null ? classifyOrThrow(observationOf(null, latencyNanos))
          : classifyOrThrow(null, 0, null, Map.of(), exception, latencyNanos);
    } catch (VirtualMachineError e) {
      if (!(e instanceof StackOverflowError)) {
        throw e;
      }
      return failed(e);
    } catch (Throwable e) {
      return failed(e);
    }
  }

  private static Observation observationOf(Throwable exception, long latencyNanos) {
    return Observation.builder().exception(exception).latency(Duration.ofNanos(latencyNanos)).build();
  }

  private Classification failed(Throwable e) {
    errors.increment();
    lastError = e;
    return CLASSIFIER_ERROR;
  }

  private Classification classifyOrThrow(Observation o) {
    if (o == null) {
      return NO_OBSERVATION;
    }
    return classifyOrThrow(o, o.httpStatus(), o.body(), o.headers(), o.exception(), 0L);
  }

  /**
   * The rules, on an observation's parts; {@code o} is the observation itself, or {@code null} for one of just
   * {@code exception} after {@code latencyNanos}, built only if a rule reads more than these parts.
   */
  private Classification classifyOrThrow(Observation o, int status, String body, Map<String, String> headers,
      Throwable exception, long latencyNanos) {
    Map<String, String> innerHeaders = null;
    ExceptionKind kind = ExceptionKind.NONE;
    Throwable kindSource = null;
    if (exception != null) {
      Observation inner = null;
      Throwable t = exception;
      for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++) {
        if (inner == null && t instanceof ObservableFailure) {
          inner = ((ObservableFailure) t).observation(); // null from a broken implementation: ignored
        }
        ExceptionKind k = ExceptionKind.of(t.getClass());
        if (k.strength > 0 && k.strength >= kind.strength) {
          kind = k;
          kindSource = t;
        }
        Throwable next = t.getCause();
        t = next == t ? null : next;
      }
      if (inner != null) {
        if (status == 0) {
          status = inner.httpStatus();
        }
        if (body == null) {
          body = inner.body();
        }
        innerHeaders = inner.headers();
      }
    }
    if (status >= 400 && status <= 599) {
      return fromErrorStatus(status, body, headers, innerHeaders);
    }
    if (status < 0 || status > 599) {
      return INVALID_STATUS;
    }
    if (exception != null) {
      Classification c = fromException(kind, kindSource, exception);
      if (c == EX_UNRECOGNIZED && body != null && !body.isBlank()) {
        // e.g. a tool threw for a 200 whose body held an error object: the body says more than the type
        Classification fromBody = fromResult(o != null ? o : observationOf(exception, latencyNanos), status, body);
        return fromBody.isSuccess() || fromBody == NO_SIGNAL || fromBody == BODY_UNRECOGNIZED ? c : fromBody;
      }
      return c;
    }
    if (status != 0 && (status < 200 || status >= 300)) {
      return UNEXPECTED_STATUS;
    }
    return fromResult(o != null ? o : observationOf(exception, latencyNanos), status, body);
  }

  // ---- HTTP error statuses -------------------------------------------------------------------------

  private Classification fromErrorStatus(int status, String body, Map<String, String> headers,
      Map<String, String> innerHeaders) {
    switch (status) {
      case 429: {
        long packed = TextSignals.scanPacked(body);
        int found = (int) packed;
        if ((found & QUOTA) != 0) {
          return coded(packed, QUOTA) ? HTTP_429_QUOTA_CODE : HTTP_429_QUOTA_TEXT;
        }
        long retryAfter = retryAfter(headers, innerHeaders);
        if ((found & CONTEXT) != 0) {
          return withRetryAfter(HTTP_429_CONTEXT, retryAfter);
        }
        return retryAfter >= 0 ? withRetryAfter(HTTP_429_RETRY_AFTER, retryAfter) : HTTP_429;
      }
      case 529:
        return withRetryAfter(HTTP_529, retryAfter(headers, innerHeaders));
      case 400: {
        long packed = TextSignals.scanPacked(body);
        int found = (int) packed;
        if ((found & CONTENT) != 0) {
          return coded(packed, CONTENT) ? HTTP_400_CONTENT_CODE : HTTP_400_CONTENT_TEXT;
        }
        if ((found & QUOTA) != 0) {
          return HTTP_400_QUOTA;
        }
        if ((found & CONTEXT) != 0) {
          return coded(packed, CONTEXT) ? HTTP_400_CONTEXT_CODE : HTTP_400_CONTEXT_TEXT;
        }
        if ((found & TOOL) != 0) {
          return HTTP_400_TOOL;
        }
        return HTTP_400;
      }
      case 401:
        return HTTP_401;
      case 403:
        return (TextSignals.categories(body) & CONTENT) != 0 ? HTTP_403_CONTENT : HTTP_403;
      case 404:
        return (TextSignals.categories(body) & TOOL) != 0 ? HTTP_404_TOOL : HTTP_404;
      case 405:
      case 406:
      case 410:
      case 415:
        return HTTP_4XX_CONTRACT;
      case 408:
        return HTTP_408;
      case 409:
        return HTTP_409;
      case 413:
        return HTTP_413;
      case 422: {
        int found = TextSignals.categories(body);
        if ((found & CONTENT) != 0) {
          return HTTP_400_CONTENT_TEXT;
        }
        if ((found & CONTEXT) != 0) {
          return HTTP_400_CONTEXT_TEXT;
        }
        return HTTP_422;
      }
      case 423: // Locked
      case 425: // Too Early
        return HTTP_4XX_TRANSIENT;
      case 451:
        return HTTP_451;
      case 501:
        return HTTP_501;
      case 505:
        return HTTP_505;
      default:
        if (status >= 500) {
          return fromServerError(status, body, headers, innerHeaders);
        }
        return HTTP_4XX;
    }
  }

  private Classification fromServerError(int status, String body, Map<String, String> headers,
      Map<String, String> innerHeaders) {
    long packed = TextSignals.scanPacked(body);
    int found = (int) packed;
    Classification c;
    if ((found & CONTENT) != 0) {
      c = HTTP_5XX_CONTENT;
    } else if ((found & CONTEXT) != 0) {
      c = HTTP_5XX_CONTEXT;
    } else if ((found & OVERLOADED) != 0) {
      c = coded(packed, OVERLOADED) ? HTTP_5XX_OVERLOADED_CODE : HTTP_5XX_OVERLOADED_TEXT;
    } else {
      c = status == 504 ? HTTP_504 : status == 503 ? HTTP_503 : HTTP_5XX;
    }
    return withRetryAfter(c, retryAfter(headers, innerHeaders));
  }

  private long retryAfter(Map<String, String> headers, Map<String, String> innerHeaders) {
    String ms = header(headers, innerHeaders, "retry-after-ms");
    if (ms != null) {
      long v = RetryAfter.parseMillis(ms);
      if (v >= 0) {
        return v;
      }
    }
    String value = header(headers, innerHeaders, "retry-after");
    long wait = value == null ? -1 : RetryAfter.parse(value, clock.epochMillis());
    if (wait < 0) {
      wait = RetryAfter.fromRateLimitReset(headers);
      if (wait < 0 && innerHeaders != null) {
        wait = RetryAfter.fromRateLimitReset(innerHeaders);
      }
    }
    return wait;
  }

  private static String header(Map<String, String> headers, Map<String, String> innerHeaders, String name) {
    String v = headers.get(name);
    if (v == null && innerHeaders != null) {
      v = innerHeaders.get(name);
    }
    return v;
  }

  // ---- exceptions without an error status ----------------------------------------------------------

  private Classification fromException(ExceptionKind kind, Throwable source, Throwable top) {
    switch (kind) {
      case CONNECT_TIMEOUT:
        return EX_CONNECT_TIMEOUT;
      case TIMEOUT:
        return EX_TIMEOUT;
      case SOCKET_TIMEOUT: {
        // the JDK and OkHttp say "Connect timed out" / "connect timed out" for the connect phase
        String m = source.getMessage();
        return m != null && m.regionMatches(true, 0, "connect", 0, 7) ? EX_CONNECT_TIMEOUT : EX_TIMEOUT;
      }
      case INTERRUPTED_IO:
        return EX_INTERRUPTED_IO;
      case CONNECT:
        return EX_CONNECT;
      case NO_ROUTE:
        return EX_NO_ROUTE;
      case UNKNOWN_HOST:
        return EX_UNKNOWN_HOST;
      case TLS_HANDSHAKE:
        // "Remote host terminated the handshake": the connection dropped, nothing wrong with certificates
        return (TextSignals.categories(source.getMessage()) & (RESET | REFUSED)) != 0
            || containsIgnoreCase(source.getMessage(), "terminated the handshake") ? EX_TLS_DROPPED : EX_TLS_HANDSHAKE;
      case TLS:
        return (TextSignals.categories(source.getMessage()) & RESET) != 0 ? EX_RESET : EX_TLS;
      case EOF:
        return EX_EOF;
      case CLOSED:
        return EX_CLOSED;
      case SOCKET: {
        int found = TextSignals.categories(source.getMessage());
        if ((found & REFUSED) != 0) {
          return EX_CONNECT;
        }
        if ((found & RESET) != 0) {
          return EX_RESET;
        }
        return (found & TIMEOUT) != 0 ? EX_TIMEOUT : EX_SOCKET;
      }
      case INTERRUPTED:
        return EX_INTERRUPTED;
      case CANCELLED:
        return EX_CANCELLED;
      case REJECTED:
        return EX_REJECTED;
      default:
        break;
    }
    // weak or no type signal: the messages of the chain may carry the provider's own words
    long packed = messageSignals(top);
    int found = (int) packed;
    if (kind != ExceptionKind.NONE && (found & SPECIFIC) == 0) {
      return weakKind(kind);
    }
    if (found != 0) {
      return fromText(packed, MESSAGE_RULES);
    }
    return kind != ExceptionKind.NONE ? weakKind(kind) : EX_UNRECOGNIZED;
  }

  private static Classification weakKind(ExceptionKind kind) {
    switch (kind) {
      case ILLEGAL_ARGUMENT:
        return EX_ILLEGAL_ARGUMENT;
      case UNSUPPORTED:
        return EX_UNSUPPORTED;
      case ACCESS_DENIED:
        return EX_ACCESS_DENIED;
      case RESPONSE_FORMAT:
        return EX_RESPONSE_FORMAT;
      case NAMED_RATE_LIMIT:
        return EX_NAMED_RATE_LIMIT;
      case NAMED_OVERLOADED:
        return EX_NAMED_OVERLOADED;
      case NAMED_CONTENT_POLICY:
        return EX_NAMED_CONTENT;
      case NAMED_CONTEXT_LENGTH:
        return EX_NAMED_CONTEXT;
      case NAMED_AUTH:
        return EX_NAMED_AUTH;
      case NAMED_INVALID_REQUEST:
        return EX_NAMED_INVALID;
      case NAMED_NOT_FOUND:
        return EX_NAMED_NOT_FOUND;
      case NAMED_SERVER_ERROR:
        return EX_NAMED_SERVER;
      case NAMED_TIMEOUT:
        return EX_NAMED_TIMEOUT;
      default:
        return EX_UNRECOGNIZED;
    }
  }

  private static long messageSignals(Throwable top) {
    long packed = 0;
    Throwable t = top;
    for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++) {
      packed |= TextSignals.scanPacked(t.getMessage());
      Throwable next = t.getCause();
      t = next == t ? null : next;
    }
    return packed;
  }

  // ---- results: 2xx or no status -------------------------------------------------------------------

  private Classification fromResult(Observation o, int status, String body) {
    Classification finish = fromFinishReason(o.finishReason());
    if (finish != null) {
      return finish;
    }
    if (o.verifierRejection() != null) {
      return VERIFIER_REJECTED;
    }
    boolean blank = body == null || body.isBlank();
    if (!blank) {
      long packed = TextSignals.scanPacked(body);
      if (status == 0) {
        return packed != 0 ? fromText(packed, BODY_RULES) : BODY_UNRECOGNIZED;
      }
      // a 2xx: only a provider's own error object or refusal code counts, never prose in a good answer
      if (looksLikeErrorObject(body)) {
        return (int) packed != 0 ? fromText(packed, BODY_RULES) : BODY_UNRECOGNIZED;
      }
      if ((int) (packed >>> 32 & CONTENT) != 0) {
        return HTTP_2XX_REFUSAL; // "finish_reason": "content_filter", "stop_reason": "refusal", "refusal": "..."
      }
      return Classification.success();
    }
    if (o.bodyExpected()) {
      Duration latency = o.latency();
      return latency != null && latency.compareTo(slowCall) >= 0 ? EMPTY_2XX_SLOW : EMPTY_2XX;
    }
    return status != 0 ? Classification.success() : NO_SIGNAL;
  }

  private static Classification fromFinishReason(String reason) {
    if (reason == null || reason.isEmpty()) {
      return null;
    }
    if (reason.equalsIgnoreCase("content_filter") || reason.equalsIgnoreCase("safety")
        || reason.equalsIgnoreCase("prohibited_content") || reason.equalsIgnoreCase("blocklist")
        || reason.equalsIgnoreCase("spii") || reason.equalsIgnoreCase("recitation")
        || reason.equalsIgnoreCase("image_safety")) {
      return FINISH_CONTENT_FILTER;
    }
    if (reason.equalsIgnoreCase("refusal")) {
      return FINISH_REFUSAL;
    }
    if (reason.equalsIgnoreCase("model_context_window_exceeded")) {
      return FINISH_CONTEXT_WINDOW;
    }
    if (reason.equalsIgnoreCase("length") || reason.equalsIgnoreCase("max_tokens")) {
      return FINISH_LENGTH;
    }
    if (reason.equalsIgnoreCase("malformed_function_call")) {
      return FINISH_MALFORMED_CALL;
    }
    if (reason.equalsIgnoreCase("error")) {
      return FINISH_ERROR;
    }
    return null;
  }

  /** An error object in the first chars of a 2xx body: {@code {"error": ...}}, {@code "type":"error"}, SSE. */
  private static boolean looksLikeErrorObject(String body) {
    int limit = Math.min(body.length(), 256);
    if (body.startsWith("event: error")) {
      return true;
    }
    for (int i = body.indexOf('"'); i >= 0 && i < limit; i = body.indexOf('"', i + 1)) {
      if (body.startsWith("\"error\"", i)) {
        // a key ("error": {...}) or a value ("type": "error"); "error": null is not an error
        int j = i + 7;
        while (j < body.length() && body.charAt(j) == ' ') {
          j++;
        }
        if (j < body.length() && body.charAt(j) == ':') {
          j++;
          while (j < body.length() && body.charAt(j) == ' ') {
            j++;
          }
          return !body.startsWith("null", j);
        }
        return true;
      }
    }
    return false;
  }

  // ---- text: messages and bodies without a status --------------------------------------------------

  private static Classification fromText(long packed, Classification[] rules) {
    int found = (int) packed;
    int coded = (int) (packed >>> 32);
    int primary = -1;
    for (int i = 0; i < PRIORITY.length; i++) {
      if ((found & PRIORITY[i]) != 0) {
        if (primary < 0) {
          primary = i;
        } else if (PRIORITY_FAULT[i] != PRIORITY_FAULT[primary]) {
          Classification p = rules[primary];
          double confidence = (coded & PRIORITY[primary]) != 0 ? Math.min(1.0, p.confidence() + 0.2) : p.confidence();
          return new Classification(p.fault(), confidence, PRIORITY_FAULT[i], -1, p.rule());
        }
      }
    }
    if (primary < 0) {
      return rules == MESSAGE_RULES ? EX_UNRECOGNIZED : BODY_UNRECOGNIZED;
    }
    Classification p = rules[primary];
    return (coded & PRIORITY[primary]) != 0 ? rules[primary + PRIORITY.length] : p;
  }

  private static Classification[] textRules(String prefix, double confidence) {
    Classification[] rules = new Classification[PRIORITY.length * 2];
    for (int i = 0; i < PRIORITY.length; i++) {
      rules[i] = c(PRIORITY_FAULT[i], confidence, null, prefix + PRIORITY_NAME[i]);
      rules[i + PRIORITY.length] = c(PRIORITY_FAULT[i], Math.min(1.0, confidence + 0.2), null, prefix + PRIORITY_NAME[i]);
    }
    return rules;
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private static boolean coded(long packed, int category) {
    return (int) (packed >>> 32 & category) != 0;
  }

  private static Classification withRetryAfter(Classification c, long retryAfterMillis) {
    return retryAfterMillis < 0 ? c : new Classification(c.fault(), c.confidence(), c.secondary(), retryAfterMillis, c.rule());
  }

  private static boolean containsIgnoreCase(String text, String lowerPart) {
    if (text == null) {
      return false;
    }
    int n = Math.min(text.length(), TextSignals.SCAN_LIMIT) - lowerPart.length();
    for (int i = 0; i <= n; i++) {
      if (text.regionMatches(true, i, lowerPart, 0, lowerPart.length())) {
        return true;
      }
    }
    return false;
  }

  private static Classification c(Fault fault, double confidence, Fault secondary, String rule) {
    return new Classification(fault, confidence, secondary, -1, rule);
  }
}
