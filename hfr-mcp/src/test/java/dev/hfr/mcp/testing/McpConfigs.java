package dev.hfr.mcp.testing;

import dev.hfr.mcp.client.McpClientConfig;
import dev.hfr.runtime.config.HfrConfigLoader;

/** The tests' MCP settings, written as the {@code mcp:} block they are and read as part of an hfr.yaml. */
public final class McpConfigs {

  private McpConfigs() {}

  /** {@code mcpYaml} (a document whose root key is {@code mcp}) placed under {@code hfr:} and read as hfr.yaml. */
  public static McpClientConfig parse(String mcpYaml) {
    return McpClientConfig.from(HfrConfigLoader.parse(asHfrYaml(mcpYaml), "hfr.yaml"));
  }

  /** The hfr.yaml holding {@code mcpYaml}: one line more at the top, every line two columns to the right. */
  public static String asHfrYaml(String mcpYaml) {
    return "hfr:\n" + mcpYaml.indent(2);
  }
}
