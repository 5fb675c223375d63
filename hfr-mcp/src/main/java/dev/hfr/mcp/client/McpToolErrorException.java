package dev.hfr.mcp.client;

import dev.hfr.runtime.classify.ObservableFailure;
import dev.hfr.runtime.classify.Observation;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * A {@code tools/call} the server answered with {@code isError: true}. The classifier reads the result's
 * text and structured content as it reads a response body: "rate limit" is T2, "quota" T7, "timed out" T3,
 * a refusal T8, and so on. The message names only the tool; the text stays out of logs.
 */
public final class McpToolErrorException extends RuntimeException implements ObservableFailure {

  private static final long serialVersionUID = 1L;

  private final transient McpSchema.CallToolResult result;
  private final String text;

  McpToolErrorException(String tool, McpSchema.CallToolResult result, String text) {
    super(tool + " answered isError: true");
    this.result = result;
    this.text = text;
  }

  /** The server's error result. */
  public McpSchema.CallToolResult result() {
    return result;
  }

  /**
   * The result's text as a body. The SDK answers arguments that fail the tool's input schema with an
   * {@code isError} result saying "input validation failed": that is a contract fault (T5), read as the
   * 422 it would be over plain HTTP.
   */
  @Override
  public Observation observation() {
    Observation.Builder b = Observation.builder().body(text);
    if (text != null && text.contains(INPUT_VALIDATION_FAILED)) {
      b.httpStatus(422);
    }
    return b.build();
  }

  /** How the SDK's server words arguments its input schema rejects. */
  static final String INPUT_VALIDATION_FAILED = "input validation failed";
}
