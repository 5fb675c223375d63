package dev.hfr.runtime.classify;

/**
 * An exception that carries what was seen of the failed call (status, headers, body). The classifier
 * walks an exception's whole cause chain and uses the first {@code ObservableFailure} it finds, so a
 * tool may wrap one in its own exception types and still be classified by the HTTP response.
 *
 * @see HttpCallException
 */
public interface ObservableFailure {

  /** What was seen of the failed call; never {@code null}. */
  Observation observation();
}
