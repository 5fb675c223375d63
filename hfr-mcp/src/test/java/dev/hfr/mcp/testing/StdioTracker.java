package dev.hfr.mcp.testing;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * A tracker MCP server on stdio, run as a child process by the stdio tests: {@code search_issues} answers,
 * {@code close_all} (destructive) writes a line to the journal file named by the first argument and then the
 * process dies before it answers — the stdio form of "the connection dropped after the tool committed".
 */
public final class StdioTracker {

  private StdioTracker() {}

  public static void main(String[] args) throws Exception {
    Path journal = Path.of(args[0]);
    var search = McpServerFeatures.SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder("search_issues", Map.of("type", "object", "properties", Map.of("query", Map.of("type", "string"))))
            .annotations(new McpSchema.ToolAnnotations("Search issues", true, false, true, false, null)).build())
        .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
            .structuredContent(Map.of("items", List.of())).addTextContent("{\"items\":[]}").build())
        .build();
    var closeAll = McpServerFeatures.SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder("close_all", Map.of("type", "object", "properties", Map.of()))
            .annotations(new McpSchema.ToolAnnotations("Close every issue", false, true, false, false, null)).build())
        .callHandler((exchange, request) -> {
          try {
            Files.writeString(journal, "closed\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          Runtime.getRuntime().halt(3);  // committed; the answer never leaves
          return McpSchema.CallToolResult.builder().addTextContent("unreachable").build();
        })
        .build();
    McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("hfr-stdio-tracker", "1.0.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(search, closeAll)
        .build();
    Thread.currentThread().join();  // the transport's threads serve stdin until the client closes it
  }
}
