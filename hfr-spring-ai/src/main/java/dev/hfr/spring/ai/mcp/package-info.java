/**
 * MCP tools for Spring AI through HFR: {@link dev.hfr.spring.ai.mcp.HfrMcpToolCallbacks} is a
 * {@code ToolCallbackProvider} over the MCP servers wrapped by {@code hfr-mcp}'s {@code HfrMcpClient}, so every
 * call the model makes is recovered by the tool's risk. Needs {@code dev.hfr:hfr-mcp} on the class path.
 */
package dev.hfr.spring.ai.mcp;
