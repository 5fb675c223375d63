package dev.hfr.runtime.classify.internal;

import java.io.EOFException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.security.cert.CertificateException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * What an exception's type alone says about a failure. Computed once per exception class and cached
 * (a {@link ClassValue}), so the hot path does no {@code instanceof} chains and no name inspection.
 *
 * <p>{@link #strength} orders kinds found at different depths of one cause chain: a connect-phase type
 * (the request never left) beats any other transport type — the JDK HttpClient reports a refused
 * connection as a ConnectException caused by a ClosedChannelException, and the connect is what matters —
 * which beats a programming-error type, which beats a hint taken from a class name; at equal strength the
 * deeper (closer to the root cause) wins.
 */
public enum ExceptionKind {
  /** HttpConnectTimeoutException: the connection was never made, so the request never left. */
  CONNECT_TIMEOUT(4),
  /** HttpTimeoutException, java.util.concurrent.TimeoutException: no answer in time. */
  TIMEOUT(3),
  /** SocketTimeoutException: a connect or a read timeout, told apart by the message. */
  SOCKET_TIMEOUT(3),
  /** Other InterruptedIOException: an I/O wait that ended without an answer. */
  INTERRUPTED_IO(3),
  /** ConnectException ("Connection refused"): the request never left. */
  CONNECT(4),
  /** NoRouteToHostException, PortUnreachableException: the request never left. */
  NO_ROUTE(4),
  /** UnknownHostException: DNS failed, usually transiently. */
  UNKNOWN_HOST(4),
  /** SSLHandshakeException, SSLPeerUnverifiedException, CertificateException: a deterministic TLS problem. */
  TLS_HANDSHAKE(3),
  /** Other SSLException: the TLS connection broke. */
  TLS(3),
  /** EOFException: the stream ended early. */
  EOF(3),
  /** ClosedChannelException and kin: the connection was closed under the call. */
  CLOSED(3),
  /** SocketException: reset, broken pipe or refused, told apart by the message. */
  SOCKET(3),
  /** InterruptedException, ClosedByInterruptException: this side gave up on the call. */
  INTERRUPTED(3),
  /** CancellationException: this side cancelled the call. */
  CANCELLED(3),
  /** RejectedExecutionException: a queue or pool is full. */
  REJECTED(3),
  /** IllegalArgumentException: deterministic bad input. */
  ILLEGAL_ARGUMENT(2),
  /** UnsupportedOperationException: the operation is not offered. */
  UNSUPPORTED(2),
  /** SecurityException, AccessDeniedException: not permitted. */
  ACCESS_DENIED(2),
  /** A Jackson exception: the response did not have the expected shape. */
  RESPONSE_FORMAT(2),
  /** A class name says rate limit ({@code RateLimitException}, {@code ThrottlingException}). */
  NAMED_RATE_LIMIT(1),
  /** A class name says overloaded. */
  NAMED_OVERLOADED(1),
  /** A class name says content filter, policy, safety or refusal. */
  NAMED_CONTENT_POLICY(1),
  /** A class name says context length or token limit. */
  NAMED_CONTEXT_LENGTH(1),
  /** A class name says authentication, permission or forbidden. */
  NAMED_AUTH(1),
  /** A class name says invalid or bad request. */
  NAMED_INVALID_REQUEST(1),
  /** A class name says not found or unknown tool. */
  NAMED_NOT_FOUND(1),
  /** A class name says internal server error or service unavailable. */
  NAMED_SERVER_ERROR(1),
  /** A class name says timeout. */
  NAMED_TIMEOUT(1),
  /** Nothing known: the message may still say something. */
  NONE(0);

  /** Which kind wins among several in one cause chain; 0 means no signal. */
  public final int strength;

  ExceptionKind(int strength) {
    this.strength = strength;
  }

  private static final ClassValue<ExceptionKind> CACHE = new ClassValue<>() {
    @Override
    protected ExceptionKind computeValue(Class<?> type) {
      return compute(type);
    }
  };

  /** The kind of an exception class. */
  public static ExceptionKind of(Class<?> type) {
    return CACHE.get(type);
  }

  private static ExceptionKind compute(Class<?> t) {
    if (HttpConnectTimeoutException.class.isAssignableFrom(t)) {
      return CONNECT_TIMEOUT;
    }
    if (HttpTimeoutException.class.isAssignableFrom(t) || TimeoutException.class.isAssignableFrom(t)) {
      return TIMEOUT;
    }
    if (SocketTimeoutException.class.isAssignableFrom(t)) {
      return SOCKET_TIMEOUT;
    }
    if (InterruptedIOException.class.isAssignableFrom(t)) {
      // Apache HttpClient's ConnectTimeoutException and ConnectionRequestTimeoutException (pool lease):
      // both end before the request is sent
      String name = t.getName();
      return name.contains("ConnectTimeout") || name.contains("ConnectionRequestTimeout") ? CONNECT_TIMEOUT : INTERRUPTED_IO;
    }
    if (ConnectException.class.isAssignableFrom(t)) {
      return CONNECT;
    }
    if (NoRouteToHostException.class.isAssignableFrom(t) || PortUnreachableException.class.isAssignableFrom(t)) {
      return NO_ROUTE;
    }
    if (UnknownHostException.class.isAssignableFrom(t)) {
      return UNKNOWN_HOST;
    }
    if (SSLHandshakeException.class.isAssignableFrom(t) || SSLPeerUnverifiedException.class.isAssignableFrom(t)
        || CertificateException.class.isAssignableFrom(t)) {
      return TLS_HANDSHAKE;
    }
    if (SSLException.class.isAssignableFrom(t)) {
      return TLS;
    }
    if (EOFException.class.isAssignableFrom(t)) {
      return EOF;
    }
    if (ClosedByInterruptException.class.isAssignableFrom(t) || InterruptedException.class.isAssignableFrom(t)) {
      return INTERRUPTED;
    }
    if (ClosedChannelException.class.isAssignableFrom(t)) {
      return CLOSED;
    }
    if (SocketException.class.isAssignableFrom(t)) {
      return SOCKET;
    }
    if (CancellationException.class.isAssignableFrom(t)) {
      return CANCELLED;
    }
    if (RejectedExecutionException.class.isAssignableFrom(t)) {
      return REJECTED;
    }
    if (AccessDeniedException.class.isAssignableFrom(t) || SecurityException.class.isAssignableFrom(t)) {
      return ACCESS_DENIED;
    }
    if (t.getName().startsWith("com.fasterxml.jackson.")) {
      return RESPONSE_FORMAT;
    }
    ExceptionKind named = fromNames(t);
    if (named != NONE) {
      return named;
    }
    if (IllegalArgumentException.class.isAssignableFrom(t)) {
      return ILLEGAL_ARGUMENT;
    }
    if (UnsupportedOperationException.class.isAssignableFrom(t)) {
      return UNSUPPORTED;
    }
    return NONE;
  }

  /** Hints from the simple names of the class and its superclasses outside the JDK (SDK exceptions). */
  private static ExceptionKind fromNames(Class<?> t) {
    for (Class<?> c = t; c != null && c != Throwable.class; c = c.getSuperclass()) {
      String name = c.getName();
      if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
        break;
      }
      ExceptionKind k = fromSimpleName(name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1));
      if (k != NONE) {
        return k;
      }
    }
    return NONE;
  }

  private static ExceptionKind fromSimpleName(String n) {
    if (has(n, "RateLimit") || has(n, "Throttl") || has(n, "TooManyRequests")) {
      return NAMED_RATE_LIMIT;
    }
    if (has(n, "Overload")) {
      return NAMED_OVERLOADED;
    }
    if (has(n, "ContentFilter") || has(n, "ContentPolicy") || has(n, "Safety") || has(n, "Refusal")
        || has(n, "Moderation")) {
      return NAMED_CONTENT_POLICY;
    }
    if (has(n, "ContextLength") || has(n, "ContextWindow") || has(n, "TokenLimit") || has(n, "PromptTooLong")) {
      return NAMED_CONTEXT_LENGTH;
    }
    if (has(n, "Authentication") || has(n, "Unauthorized") || has(n, "Unauthenticated") || has(n, "Forbidden")
        || has(n, "PermissionDenied") || has(n, "AccessDenied")) {
      return NAMED_AUTH;
    }
    if (has(n, "InvalidRequest") || has(n, "BadRequest")) {
      return NAMED_INVALID_REQUEST;
    }
    if (has(n, "NotFound") || has(n, "UnknownTool") || has(n, "NoSuchTool")) {
      return NAMED_NOT_FOUND;
    }
    if (has(n, "InternalServer") || has(n, "ServiceUnavailable") || has(n, "ServerError") || has(n, "BadGateway")) {
      return NAMED_SERVER_ERROR;
    }
    if (has(n, "Timeout") || has(n, "TimedOut")) {
      return NAMED_TIMEOUT;
    }
    return NONE;
  }

  private static boolean has(String name, String part) {
    return name.contains(part);
  }
}
