package dev.hfr.mcp.client;

import dev.hfr.runtime.classify.ObservableFailure;
import dev.hfr.runtime.classify.Observation;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * A JSON-RPC error answering a {@code tools/call}. The classifier knows HTTP, so the error code is read as
 * the HTTP status that means the same: invalid params (arguments the tool's schema rejects, an unknown tool)
 * as 422 (T5, a contract the caller must fix), method not found as 404 (T5), an invalid request or a parse
 * error as 400 (T7: this client sent something no server takes), internal error and server-defined codes
 * as 500 (T1). The error's message and data are the body the classifier scans.
 */
public final class McpRpcErrorException extends RuntimeException implements ObservableFailure {

  private static final long serialVersionUID = 1L;

  private final int code;
  private final int httpEquivalent;
  private final String body;

  McpRpcErrorException(String tool, McpError error) {
    super(tool + " failed with JSON-RPC error " + codeOf(error), error);
    this.code = codeOf(error);
    this.httpEquivalent = httpEquivalent(code);
    McpSchema.JSONRPCResponse.JSONRPCError e = error.getJsonRpcError();
    this.body = e == null ? error.getMessage() : e.message() + (e.data() != null ? " " + e.data() : "");
  }

  private static int codeOf(McpError error) {
    McpSchema.JSONRPCResponse.JSONRPCError e = error.getJsonRpcError();
    return e == null || e.code() == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : e.code();
  }

  /** The HTTP status read in place of a JSON-RPC error code. */
  static int httpEquivalent(int code) {
    if (code == McpSchema.ErrorCodes.INVALID_PARAMS) {
      return 422;
    }
    if (code == McpSchema.ErrorCodes.INVALID_REQUEST || code == McpSchema.ErrorCodes.PARSE_ERROR) {
      return 400;
    }
    if (code == McpSchema.ErrorCodes.METHOD_NOT_FOUND || code == McpSchema.ErrorCodes.RESOURCE_NOT_FOUND) {
      return 404;
    }
    return 500;
  }

  /** The JSON-RPC error code. */
  public int code() {
    return code;
  }

  @Override
  public Observation observation() {
    return Observation.builder().httpStatus(httpEquivalent).body(body).build();
  }
}
