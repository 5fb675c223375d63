package dev.hfr.runtime.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolOutcome;
import java.util.Locale;

/**
 * Renders a tool call's {@link ToolOutcome} as the JSON object of the article's tool execution contract,
 * which is what the model reads instead of a stack trace:
 *
 * <pre>{@code
 * {"status":"failed","error_type":"timeout_unknown_state","fault":"T3","retryable":false,
 *  "side_effect":true,"artifact_refs":["ledger:9f2c..."],"verification_required":true,
 *  "degraded":false,"attempts":2,"tool":"ShopTools.createOrder"}
 * }</pre>
 *
 * {@code error_type} is HFR's machine-readable reason; {@code fault} the F2D-9 class. Nothing of the
 * arguments or the exception message is included: the model gets the decision, not the internals.
 */
public final class ToolExecutionContract {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ToolExecutionContract() {}

  /** The contract of an outcome HFR produced. */
  public static String render(ToolOutcome outcome) {
    return node(outcome).toString();
  }

  /** A successful outcome with its result embedded, for degraded results the model must see as such. */
  public static String renderSuccess(ToolOutcome outcome, String resultText) {
    ObjectNode o = node(outcome);
    o.put("result", resultText);
    return o.toString();
  }

  private static ObjectNode node(ToolOutcome outcome) {
    ObjectNode o = JSON.createObjectNode();
    o.put("status", outcome.status().name().toLowerCase(Locale.ROOT));
    if (outcome.status() != ToolOutcome.Status.SUCCESS || outcome.errorType() != null) {
      o.put("error_type", outcome.reason());
      o.put("fault", outcome.errorType() == null ? Fault.UNCLASSIFIED.name() : outcome.errorType().name());
    }
    o.put("retryable", outcome.retryable());
    o.put("side_effect", outcome.sideEffect());
    outcome.artifactRefs().forEach(o.putArray("artifact_refs")::add);
    o.put("verification_required", outcome.verificationRequired());
    o.put("degraded", outcome.degraded());
    if (outcome.degraded()) {
      o.put("degrade_level", outcome.degradeLevel().name());
    }
    o.put("attempts", outcome.attempts());
    o.put("tool", outcome.tool());
    if (outcome.personAnswer() != null) {
      o.put("person_answer", outcome.personAnswer());
    }
    return o;
  }

  /**
   * The contract for a failure HFR did not handle (the engine is switched off, or the arguments the model
   * sent could not be bound): an unknown failure of a write is reported as possibly committed.
   */
  public static String renderUnmanaged(String tool, Risk risk, String errorType, Fault fault, boolean retryable, boolean executed) {
    boolean write = risk != Risk.R0;
    ObjectNode o = JSON.createObjectNode();
    o.put("status", "failed");
    o.put("error_type", errorType);
    o.put("fault", fault.name());
    o.put("retryable", retryable);
    o.put("side_effect", executed && write);
    o.putArray("artifact_refs");
    o.put("verification_required", executed && write);
    o.put("degraded", false);
    o.put("tool", tool);
    return o.toString();
  }
}
