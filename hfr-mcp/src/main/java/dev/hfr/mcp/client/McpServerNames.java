package dev.hfr.mcp.client;

import java.util.Objects;

/** The rule for the names HFR gives MCP servers: they are the class part of tool names ({@code server.tool}). */
final class McpServerNames {

  private McpServerNames() {}

  static String check(String server) {
    Objects.requireNonNull(server, "server");
    if (!server.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("server must hold only letters, digits, '_' and '-' (it names the tools"
          + " <server>.<tool>), was \"" + server + "\"");
    }
    return server;
  }
}
