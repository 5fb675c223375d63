/**
 * MCP tools as an LLM framework hands them to a model: name, description and input schema from the server's
 * listing, and a call that takes the model's JSON arguments and answers with text — the tool's result, or
 * the article's execution contract when HFR could not get one. The LangChain4j and Spring AI adapters are
 * thin layers over {@link dev.hfr.mcp.internal.model.McpModelTools}.
 */
package dev.hfr.mcp.internal.model;
