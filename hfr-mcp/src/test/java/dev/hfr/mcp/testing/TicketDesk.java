package dev.hfr.mcp.testing;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.server.McpServerFeatures;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A help desk whose reconcile tool answers a boolean, as many real servers do:
 *
 * <ul>
 *   <li>{@code create_ticket(title)}: a write; {@link #loseNextCreate()} makes the next one fail before it commits
 *       (a server that crashed mid-request), which with a dropped connection looks exactly like a lost answer;
 *   <li>{@code ticket_exists(title)}: read-only; {@code {"found": <bool>, "count": <n>, "closed_at": null}}.
 * </ul>
 */
public final class TicketDesk {

  private final Map<String, AtomicInteger> created = new ConcurrentHashMap<>();
  private final AtomicBoolean loseNext = new AtomicBoolean();

  /** The next {@code create_ticket} runs but stores nothing. */
  public void loseNextCreate() {
    loseNext.set(true);
  }

  /** Tickets committed with {@code title}. */
  public int created(String title) {
    AtomicInteger n = created.get(title);
    return n == null ? 0 : n.get();
  }

  /** The desk's two tools. */
  public List<McpServerFeatures.SyncToolSpecification> tools() {
    McpSchema.Tool create = McpSchema.Tool.builder("create_ticket",
            Map.of("type", "object", "properties", Map.of("title", Map.of("type", "string"))))
        .description("Opens a ticket")
        .annotations(new McpSchema.ToolAnnotations("Open a ticket", false, false, false, true, null))
        .build();
    McpSchema.Tool exists = McpSchema.Tool.builder("ticket_exists",
            Map.of("type", "object", "properties", Map.of("title", Map.of("type", "string"))))
        .description("Says whether a ticket with this title exists")
        .annotations(new McpSchema.ToolAnnotations("Find a ticket", true, false, true, false, null))
        .build();
    return List.of(
        McpServerFeatures.SyncToolSpecification.builder().tool(create).callHandler((exchange, request) -> {
          String title = String.valueOf(request.arguments().get("title"));
          if (!loseNext.getAndSet(false)) {
            created.computeIfAbsent(title, t -> new AtomicInteger()).incrementAndGet();
          }
          return answer(Map.of("title", title));
        }).build(),
        McpServerFeatures.SyncToolSpecification.builder().tool(exists).callHandler((exchange, request) -> {
          int n = created(String.valueOf(request.arguments().get("title")));
          Map<String, Object> out = new HashMap<>();
          out.put("found", n > 0);
          out.put("count", n);
          out.put("closed_at", null);
          return answer(out);
        }).build());
  }

  private static McpSchema.CallToolResult answer(Map<String, Object> content) {
    return McpSchema.CallToolResult.builder().structuredContent(content).addTextContent(content.toString()).build();
  }
}
