package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.time.Sleeper;

/**
 * Runs the state machine on the calling thread: each step in turn, sleeping the waits it asks for with
 * the {@link Sleeper} (virtual in tests). A failure of the engine itself takes §4.1's way out
 * ({@link EngineFailure}).
 */
final class BlockingDriver {

  private final StateMachine machine;
  private final Sleeper sleeper;
  private final EngineFailure failure;

  BlockingDriver(StateMachine machine, Sleeper sleeper, EngineFailure failure) {
    this.machine = machine;
    this.sleeper = sleeper;
    this.failure = failure;
  }

  /** Runs {@code c} from {@code from} to its end: the accepted result, or the structured failure thrown. */
  <R> R run(Call<R> c, Next from) {
    try {
      return loop(c, from);
    } catch (ToolCallException e) {
      throw e;
    } catch (LostKey e) {
      throw machine.lostKey(c, e);
    } catch (RuntimeException | LinkageError | AssertionError e) {
      return failure.duringCall(c, e);
    }
  }

  private <R> R loop(Call<R> c, Next next) {
    while (true) {
      ControllerState s = next.state;
      c.state = s;
      if (next.waits) {
        try {
          sleeper.sleep(next.delayNanos);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          next = machine.interrupted(c);
          continue;
        }
      }
      if (s == ControllerState.ACCEPT) {
        return machine.accept(c);
      }
      if (StateMachine.failsCall(s)) {
        throw machine.terminate(c, s);
      }
      next = machine.step(c, s);
    }
  }
}
