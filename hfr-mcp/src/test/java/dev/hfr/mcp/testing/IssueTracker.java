package dev.hfr.mcp.testing;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The MCP tools of a small issue tracker, with the server's own count of duplicates: two committed issues
 * with the same title are one duplicate (each test call uses a title of its own).
 *
 * <ul>
 *   <li>{@code create_issue(title)}: a write, not idempotent; hints as given (honest or lying)
 *   <li>{@code search_issues(query)}: read-only; {@code {"items":[...]}} with the issues titled {@code query}
 *   <li>{@code label_issue(title, label)}: idempotent, not destructive
 *   <li>{@code close_all()}: destructive
 * </ul>
 */
public final class IssueTracker {

  private final Map<String, AtomicInteger> byTitle = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong searchCalls = new AtomicLong();
  private final AtomicLong labelCalls = new AtomicLong();
  private final AtomicLong closeCalls = new AtomicLong();

  /** The honest hints of {@code create_issue}: not read-only, not destructive, not idempotent. */
  public static final McpSchema.ToolAnnotations HONEST_CREATE = new McpSchema.ToolAnnotations("Create an issue",
      false, false, false, true, null);
  /** A lying server: {@code create_issue} announced read-only. */
  public static final McpSchema.ToolAnnotations LYING_CREATE = new McpSchema.ToolAnnotations("Create an issue",
      true, false, true, true, null);

  /** The tracker's tools, {@code create_issue} with {@code createHints}. */
  public List<McpServerFeatures.SyncToolSpecification> tools(McpSchema.ToolAnnotations createHints) {
    List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
    tools.add(tool("create_issue", createHints, Map.of("title", "string"), (args) -> {
      String title = String.valueOf(args.get("title"));
      byTitle.computeIfAbsent(title, t -> new AtomicInteger()).incrementAndGet();
      long id = ids.incrementAndGet();
      return Map.of("id", id, "title", title);
    }));
    tools.add(tool("search_issues", new McpSchema.ToolAnnotations("Search issues", true, false, true, false, null),
        Map.of("query", "string"), (args) -> {
          searchCalls.incrementAndGet();
          String query = String.valueOf(args.get("query"));
          int n = byTitle.getOrDefault(query, new AtomicInteger()).get();
          List<Map<String, Object>> items = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            items.add(Map.of("title", query));
          }
          return Map.of("items", items);
        }));
    tools.add(tool("label_issue", new McpSchema.ToolAnnotations("Label an issue", false, false, true, false, null),
        Map.of("title", "string", "label", "string"), (args) -> {
          labelCalls.incrementAndGet();
          return Map.of("labelled", true);
        }));
    tools.add(tool("close_all", new McpSchema.ToolAnnotations("Close every issue", false, true, false, false, null),
        Map.of(), (args) -> {
          closeCalls.incrementAndGet();
          return Map.of("closed", byTitle.size());
        }));
    return tools;
  }

  /** Committed issues titled {@code title}. */
  public int created(String title) {
    AtomicInteger n = byTitle.get(title);
    return n == null ? 0 : n.get();
  }

  /** Committed issues beyond the first of each title: the duplicates. */
  public long duplicates() {
    return byTitle.values().stream().mapToLong(n -> Math.max(0, n.get() - 1)).sum();
  }

  /** Distinct titles committed. */
  public long distinctCreated() {
    return byTitle.size();
  }

  /** Searches the server ran, answered or not. */
  public long searchCalls() {
    return searchCalls.get();
  }

  public long labelCalls() {
    return labelCalls.get();
  }

  public long closeCalls() {
    return closeCalls.get();
  }

  interface Body {
    Map<String, Object> run(Map<String, Object> args);
  }

  private static McpServerFeatures.SyncToolSpecification tool(String name, McpSchema.ToolAnnotations hints,
      Map<String, String> params, Body body) {
    Map<String, Object> properties = new java.util.LinkedHashMap<>();
    params.forEach((p, type) -> properties.put(p, Map.of("type", type)));
    McpSchema.Tool tool = McpSchema.Tool.builder(name, Map.of("type", "object", "properties", properties))
        .description(name)
        .annotations(hints)
        .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> {
          Map<String, Object> out = body.run(request.arguments() == null ? Map.of() : request.arguments());
          return McpSchema.CallToolResult.builder().structuredContent(out).addTextContent(out.toString()).build();
        })
        .build();
  }
}
