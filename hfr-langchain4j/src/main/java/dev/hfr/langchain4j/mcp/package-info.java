/**
 * MCP tools for LangChain4j through HFR: {@link dev.hfr.langchain4j.mcp.HfrMcpToolProvider} gives an AI
 * service the tools of MCP servers wrapped by {@code hfr-mcp}'s {@code HfrMcpClient}, so every call the
 * model makes is recovered by the tool's risk. Needs {@code dev.hfr:hfr-mcp} on the class path.
 */
package dev.hfr.langchain4j.mcp;
