package dev.hfr.mcp.client;

/**
 * A reconcile tool answered, but the value at {@code found_at} says neither "the write is there" nor "it is
 * not" (missing, null, a number): the write's outcome stays unknown, never counted as committed or absent.
 * The message names the reconcile tool, the pointer and what was found there, and the fix.
 */
public final class McpReconcileUnreadableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  McpReconcileUnreadableException(String reconcileTool, String foundAt, String found) {
    super(reconcileTool + " answered with " + found + " at found_at '" + foundAt + "': the write's outcome stays"
        + " unknown. Point found_at at a boolean, or at a list, object or text that is empty when the write is absent");
  }
}
