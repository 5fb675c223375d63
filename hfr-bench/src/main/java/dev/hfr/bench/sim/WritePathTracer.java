package dev.hfr.bench.sim;

import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;

/**
 * Notes the engine's decisions on write steps of the running task as one compact line — rung, fault,
 * action and reason per decision — so the report can show the exact decision paths that ended in a
 * duplicate side effect. One run, one thread, one task at a time.
 */
final class WritePathTracer implements DecisionSink {

  private static final String WRITE_TOOL = "WriteTool.write";

  private final StringBuilder path = new StringBuilder();

  @Override
  public void record(DecisionEvent e) {
    if (!e.tool().endsWith(WRITE_TOOL)) {
      return;
    }
    if (path.length() > 0) {
      path.append(" → ");
    }
    path.append(e.rung()).append(' ').append(e.fault() == null ? "ok" : e.fault().name()).append(": ")
        .append(e.action()).append('/').append(e.reason().code());
  }

  @Override
  public boolean wantsEvents() {
    return true;
  }

  @Override
  public void close() {}

  /** The write decisions of the running task so far. */
  String path() {
    return path.toString();
  }

  void clear() {
    path.setLength(0);
  }
}
