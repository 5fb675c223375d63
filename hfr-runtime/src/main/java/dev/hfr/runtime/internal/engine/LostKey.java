package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.StaleFencingTokenException;

/**
 * A checkpoint refused by the fencing token: this call's lease lapsed and another recoverer took the key
 * over. The record is the new holder's (it reconciles the write); the call ends {@code key_in_use}.
 */
final class LostKey extends RuntimeException {

  private static final long serialVersionUID = 1L;

  final transient StaleFencingTokenException refusal;

  LostKey(StaleFencingTokenException refusal) {
    super(refusal.getMessage(), refusal, false, false);
    this.refusal = refusal;
  }
}
