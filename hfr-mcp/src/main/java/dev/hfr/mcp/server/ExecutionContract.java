package dev.hfr.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The article's tool execution contract as the MCP result's structured content carries it:
 *
 * <pre>{@code
 * {"status":"failed","error_type":"timeout_unknown_state","fault":"T3","retryable":false,
 *  "side_effect":true,"artifact_refs":["ledger:9f2c..."],"verification_required":true,
 *  "degraded":false,"attempts":2,"tool":"IssueTools.createIssue"}
 * }</pre>
 *
 * Nothing of the arguments or of an exception message is included.
 */
final class ExecutionContract {

  /** Binds arguments and writes results; Optional parameters and results need the JDK 8 module. */
  static final ObjectMapper JSON = new ObjectMapper().registerModule(new Jdk8Module());

  private ExecutionContract() {}

  /** The contract of an outcome HFR produced. */
  static Map<String, Object> of(ToolOutcome outcome) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("status", outcome.status().name().toLowerCase(Locale.ROOT));
    if (outcome.status() != ToolOutcome.Status.SUCCESS || outcome.errorType() != null) {
      o.put("error_type", outcome.reason());
      o.put("fault", outcome.errorType() == null ? Fault.UNCLASSIFIED.name() : outcome.errorType().name());
    }
    o.put("retryable", outcome.retryable());
    o.put("side_effect", outcome.sideEffect());
    o.put("artifact_refs", outcome.artifactRefs());
    o.put("verification_required", outcome.verificationRequired());
    o.put("degraded", outcome.degraded());
    if (outcome.degraded()) {
      o.put("degrade_level", outcome.degradeLevel().name());
    }
    o.put("attempts", outcome.attempts());
    o.put("tool", outcome.tool());
    if (outcome.personAnswer() != null) {
      o.put("person_answer", outcome.personAnswer());   // a person's answer in the inbox decided the call
    }
    return o;
  }

  /**
   * The contract of a failure the engine did not handle (it is switched off, or the arguments could not be
   * bound): a write that may have run is reported as possibly committed, to be verified.
   */
  static Map<String, Object> unmanaged(String tool, boolean write, String errorType, Fault fault, boolean executed) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("status", "failed");
    o.put("error_type", errorType);
    o.put("fault", fault.name());
    o.put("retryable", !write);
    o.put("side_effect", executed && write);
    o.put("artifact_refs", List.of());
    o.put("verification_required", executed && write);
    o.put("degraded", false);
    o.put("tool", tool);
    return o;
  }
}
