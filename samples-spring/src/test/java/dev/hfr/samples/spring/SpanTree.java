package dev.hfr.samples.spring;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** A trace as an indented tree, HFR's attributes shown: what the report and docs/SPRING.md quote. */
final class SpanTree {

  private static final List<String> SHOWN = List.of("hfr.risk", "hfr.fault", "hfr.action", "hfr.ledger.state", "hfr.outcome",
      "hfr.attempts");

  private SpanTree() {}

  static String render(List<SpanData> spans, SpanData root) {
    StringBuilder out = new StringBuilder();
    append(out, spans, root, "");
    return out.toString();
  }

  private static void append(StringBuilder out, List<SpanData> spans, SpanData span, String indent) {
    out.append(indent).append(span.getName()).append("  status=").append(span.getStatus().getStatusCode());
    String attributes = SHOWN.stream()
        .map(k -> span.getAttributes().get(AttributeKey.stringKey(k)) == null ? null : k + "=" + span.getAttributes().get(AttributeKey.stringKey(k)))
        .filter(a -> a != null).collect(Collectors.joining(" "));
    out.append(attributes.isEmpty() ? "" : "  " + attributes).append('\n');
    for (EventData e : span.getEvents()) {
      out.append(indent).append("    event: ").append(e.getName()).append('\n');
    }
    spans.stream().filter(s -> s.getParentSpanId().equals(span.getSpanId()))
        .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos))
        .forEach(child -> append(out, spans, child, indent + "  "));
  }
}
