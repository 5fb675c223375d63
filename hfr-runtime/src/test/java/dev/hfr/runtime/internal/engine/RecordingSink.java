package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** Keeps decision events in memory for assertions. */
final class RecordingSink implements DecisionSink {

  final List<DecisionEvent> events = new CopyOnWriteArrayList<>();

  @Override
  public void record(DecisionEvent event) {
    events.add(event);
  }

  List<Action> actions() {
    return events.stream().map(DecisionEvent::action).collect(Collectors.toList());
  }
}
