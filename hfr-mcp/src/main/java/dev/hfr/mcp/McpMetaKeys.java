package dev.hfr.mcp;

/**
 * The {@code _meta} keys HFR reads and writes on a {@code tools/call}, prefixed as the MCP specification
 * asks of implementation-specific keys.
 */
public final class McpMetaKeys {

  /**
   * The idempotency key of an R1 call. HFR's client sends its ledger key here (the same on every attempt);
   * HFR's server passes it to the tool's {@code @IdempotencyKey} parameter, and derives one when absent.
   */
  public static final String IDEMPOTENCY_KEY = "dev.hfr/idempotency-key";

  /** The task a call belongs to on the server side (its ledger keys are derived in it). */
  public static final String TASK_ID = "dev.hfr/task-id";

  /** The tenant of that task. */
  public static final String TENANT = "dev.hfr/tenant";

  private McpMetaKeys() {}
}
