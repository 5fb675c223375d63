package dev.hfr.samples.services;

import java.time.Duration;
import java.util.Map;

/** A failure the fake services inject into one request, instead of (or after) doing their work. */
public sealed interface InjectedFault {

  /** Answers with this status, headers and body without doing the work. */
  record Status(int code, Map<String, String> headers, String body) implements InjectedFault {}

  /** Does the work (commits it), then holds the response longer than the client waits: a dropped answer. */
  record CommitThenStall(Duration hold) implements InjectedFault {}

  /** A 503 Service Unavailable. */
  static InjectedFault unavailable() {
    return new Status(503, Map.of(), "service unavailable");
  }

  /** A 429 Too Many Requests with a Retry-After in seconds. */
  static InjectedFault rateLimited(int retryAfterSeconds) {
    return new Status(429, Map.of("Retry-After", Integer.toString(retryAfterSeconds)), "rate limit exceeded");
  }

  /** A 501 Not Implemented: the endpoint is gone (a tool that is no longer available). */
  static InjectedFault notImplemented() {
    return new Status(501, Map.of(), "this endpoint is no longer served");
  }

  /** Commits, then answers after {@code hold}, when the client has given up. */
  static InjectedFault commitThenStall(Duration hold) {
    return new CommitThenStall(hold);
  }
}
