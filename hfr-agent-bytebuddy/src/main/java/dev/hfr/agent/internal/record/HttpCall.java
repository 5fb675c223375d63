package dev.hfr.agent.internal.record;

import dev.hfr.annotations.Risk;

/**
 * One request the application made, as the agent tracks it between the start and the end of the
 * instrumented call. Only bounded tag values are kept: no URL, header value or body.
 */
final class HttpCall {

  final int client;
  final String method;
  final String host;
  final Risk risk;
  final boolean retryable;
  /** The attempt running now: 1, then 2 after an enforced retry... */
  int attempt = 1;
  long attemptStartNanos;
  /** How long the last finished attempt took. */
  long latencyNanos;
  /** The backoff before the next attempt of an enforced {@code sendAsync}, set when its retry is decided. */
  long pendingDelayNanos;

  HttpCall(int client, String method, String host, Risk risk, boolean retryable, long startNanos) {
    this.client = client;
    this.method = method;
    this.host = host;
    this.risk = risk;
    this.retryable = retryable;
    this.attemptStartNanos = startNanos;
  }
}
