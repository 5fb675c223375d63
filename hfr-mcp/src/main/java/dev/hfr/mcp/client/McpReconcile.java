package dev.hfr.mcp.client;

import java.util.Map;
import java.util.Objects;

/**
 * How a write of an MCP tool is reconciled: a read-only tool of the same server is called with arguments
 * taken from the write's own, and its answer says whether the write committed
 * ({@code mcp.servers.<server>.tools.<tool>.reconcile}).
 *
 * <pre>{@code
 * reconcile:
 *   tool: search_issues
 *   arguments: {query: title}     # search_issues.query = create_issue's title
 *   found_at: /items               # committed when this JSON pointer of the answer is true or not empty
 * }</pre>
 *
 * @param tool the reconcile tool's name on the same server
 * @param arguments the reconcile tool's argument name → the name of the write's argument that supplies it
 * @param foundAt a JSON pointer into the reconcile answer's structured content ({@code ""}: all of it): the write
 *     committed when the value there is {@code true}, or a list, object or text that is not empty; absent when it
 *     is {@code false} or empty; anything else (missing, null, a number) leaves the outcome unknown
 */
public record McpReconcile(String tool, Map<String, String> arguments, String foundAt) {

  public McpReconcile {
    Objects.requireNonNull(tool, "tool");
    arguments = Map.copyOf(arguments);
    foundAt = foundAt == null ? "" : foundAt;
    if (!foundAt.isEmpty() && !foundAt.startsWith("/")) {
      throw new IllegalArgumentException("found_at must be a JSON pointer starting with '/', was " + foundAt);
    }
  }
}
