package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.io.IOException;

/** Where the decision writer puts the JSON of each event: a logger or a file. Used by the writer thread only. */
interface DecisionDestination {

  /** Whether an event written now would be kept; asked on the calling thread, so it must be cheap. */
  boolean enabled();

  /** Writes one event, as one JSON object: the content of {@code json}, which the writer reuses afterwards. */
  void write(DecisionEventJson json) throws IOException;

  /** Makes what was written visible (once per batch). */
  void flush() throws IOException;

  void close() throws IOException;
}
