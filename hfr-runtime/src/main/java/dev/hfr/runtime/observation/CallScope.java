package dev.hfr.runtime.observation;


/**
 * What an asynchronous call makes current around each stretch of its steps, on whichever thread runs them (the
 * caller's, the one completing an attempt, a backoff timer's): the call's Observation, so that the
 * {@link CallListener} finds it there as it does on the calling thread of a blocking call.
 */
@FunctionalInterface
public interface CallScope {

  /** Makes nothing current. */
  CallScope NONE = () -> () -> { };

  /** Makes the call's context current on this thread until the handle is closed. */
  Handle open();

  /** Closes what {@link #open} made current; never throws. */
  @FunctionalInterface
  interface Handle extends AutoCloseable {
    @Override
    void close();
  }
}
