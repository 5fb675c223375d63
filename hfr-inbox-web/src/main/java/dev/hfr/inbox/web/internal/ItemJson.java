package dev.hfr.inbox.web.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.PersonAnswer;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Items as the API's JSON (the same words as the Java API), and the filters of a query. */
public final class ItemJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ItemJson() {}

  /** The filter of {@code tenant}, {@code tool}, {@code reason} and {@code state} ({@code waiting} by default, {@code all}). */
  public static InboxFilter filter(Map<String, String> q) {
    String state = q.getOrDefault("state", "waiting");
    ItemState s;
    if (state.isBlank() || state.equalsIgnoreCase("all")) {
      s = null;
    } else {
      try {
        s = ItemState.valueOf(state.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown state '" + state + "': use waiting, answered, used, expired or all");
      }
    }
    return new InboxFilter(q.get("tenant"), q.get("tool"), q.get("reason"), s);
  }

  public static ArrayNode list(List<InboxItem> items) {
    ArrayNode a = JSON.createArrayNode();
    items.forEach(i -> a.add(item(i)));
    return a;
  }

  public static ObjectNode item(InboxItem i) {
    ObjectNode o = JSON.createObjectNode();
    o.put("id", i.id());
    o.put("kind", lower(i.kind().name()));
    o.put("state", lower(i.state().name()));
    o.put("tenant", i.tenant());
    o.put("task_id", i.taskId());
    o.put("tool", i.tool());
    o.put("risk", i.risk());
    o.put("reason", i.reason());
    o.put("ledger_key", i.ledgerKey());
    o.put("args_hash", i.argsHash());
    o.put("args_preview", i.argsPreview());
    o.put("created_at", i.createdAt().toString());
    o.put("expires_at", i.expiresAt() == null ? null : i.expiresAt().toString());
    o.set("evidence", evidence(i.evidence()));
    PersonAnswer a = i.answer();
    if (a != null) {
      ObjectNode ans = o.putObject("answer");
      ans.put("answer", a.answer().code());
      ans.put("by", a.by());
      ans.put("at", a.at().toString());
      ans.put("reason", a.reason());
      ans.put("result", a.result());
    }
    return o;
  }

  /** The evidence bundle as JSON, or as text if it does not parse. */
  static JsonNode evidence(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      return JSON.getNodeFactory().textNode(text);
    }
  }

  static String pretty(String evidence) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(evidence(evidence));
    } catch (Exception e) {
      return evidence;
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
