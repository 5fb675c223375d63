package dev.hfr.runtime.conversation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.contract.ToolExecutionContract;

/**
 * What a model reads when HFR ends its tool call without a fresh result: the article's execution contract
 * ({@link ToolExecutionContract}) plus two fields that say, in words a model follows, what happened and whether
 * calling again helps — because a model calls a failing tool again unless told not to:
 *
 * <pre>{@code
 * {"status":"escalated","error_type":"timeout_unknown_state","fault":"T3","retryable":false,"side_effect":true,...,
 *  "call_again":false,
 *  "message":"A person was asked to check this call. Do not call it again: tell the user it is being checked."}
 * }</pre>
 *
 * Every adapter (LangChain4j, Spring AI, MCP) answers with this, so a model sees the same words whichever framework
 * runs it. {@code call_again} is {@code retryable} for a failure that left nothing behind; never for an escalated
 * call, a write of unknown outcome, a refusal or an answer from the ledger.
 */
public final class ModelAnswers {

  /** The field saying whether calling the tool again with the same arguments can help. */
  public static final String CALL_AGAIN = "call_again";

  /** The field saying what happened and what to do next, for the model. */
  public static final String MESSAGE = "message";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelAnswers() {}

  /** The contract of {@code outcome}, with {@value #CALL_AGAIN} and {@value #MESSAGE}. */
  public static String render(ToolOutcome outcome) {
    ObjectNode o = object(ToolExecutionContract.render(outcome));
    Advice advice = adviceFor(outcome);
    o.put(CALL_AGAIN, advice.callAgain());
    o.put(MESSAGE, advice.message());
    return o.toString();
  }

  /**
   * A result the engine answered from the ledger instead of running the call again (the model called a write its
   * conversation already made; reason {@value #REPLAYED}): the contract with the recorded result embedded, {@code
   * "replayed": true}, and the advice not to call again.
   */
  public static String renderReplay(ToolOutcome outcome, String resultText) {
    ObjectNode o = object(ToolExecutionContract.renderSuccess(outcome, resultText));
    o.put("replayed", true);
    o.put(CALL_AGAIN, false);
    o.put(MESSAGE, ALREADY_DONE_RESULT.message());
    return o.toString();
  }

  /** Whether {@code outcome} is a result answered from the ledger (reason {@value #REPLAYED}). */
  public static boolean isReplay(ToolOutcome outcome) {
    return outcome != null && outcome.status() == ToolOutcome.Status.SUCCESS && outcome.replayed();
  }

  /** The reason of an outcome the engine answered from the ledger with the write's recorded result. */
  public static final String REPLAYED = "replayed_from_ledger";

  /**
   * A contract rendered elsewhere ({@link ToolExecutionContract#renderUnmanaged}) with {@value #CALL_AGAIN} and
   * {@value #MESSAGE} from its own {@code retryable} and {@code side_effect} fields.
   */
  public static String withAdvice(String contractJson) {
    ObjectNode o = object(contractJson);
    boolean retryable = o.path("retryable").asBoolean(false);
    boolean sideEffect = o.path("side_effect").asBoolean(false);
    Advice advice = "invalid_arguments".equals(o.path("error_type").asText()) ? INVALID_ARGUMENTS
        : sideEffect && !retryable ? UNKNOWN_WRITE : retryable ? RETRYABLE : NOT_RETRYABLE;
    o.put(CALL_AGAIN, advice.callAgain());
    o.put(MESSAGE, advice.message());
    return o.toString();
  }

  /** What to tell the model, and whether calling again helps. */
  public record Advice(boolean callAgain, String message) {}

  private static final Advice ESCALATED = new Advice(false,
      "A person was asked to check this call. Do not call it again: tell the user it is being checked.");
  private static final Advice UNKNOWN_WRITE = new Advice(false,
      "This write may already have been applied and its outcome is not known yet. Do not call it again (calling again"
          + " will not help and could do it twice): tell the user it needs checking.");
  private static final Advice ALREADY_DONE = new Advice(false,
      "This write was already done earlier in this conversation; it was not done again. Do not call it again.");
  private static final Advice ALREADY_DONE_RESULT = new Advice(false,
      "This write was already done earlier in this conversation; this is its recorded result, nothing was done again."
          + " Do not call it again.");
  private static final Advice UNKNOWN_RECALLED = new Advice(false,
      "This write was already tried in this conversation and its outcome is still unknown; a person was asked to"
          + " check it and nothing was sent again. Do not call it again: tell the user it is being checked.");
  private static final Advice AWAITING_APPROVAL = new Advice(true,
      "This call needs a person's approval and nothing was done yet; it is waiting in their inbox. Tell the user it"
          + " waits for approval, and call it again with the same arguments once they say it was approved.");
  private static final Advice DENIED_BY_PERSON = new Advice(false,
      "A person denied this call (their reason is in person_answer); nothing was done. Do not call it again: tell"
          + " the user why.");
  private static final Advice NEW_APPROVAL_NEEDED = new Advice(true,
      "The approval for this call expired or was already used; nothing was done and a new request is waiting for a"
          + " person. Tell the user, and call it again once they say it was approved.");
  private static final Advice CLOSED_BY_PERSON = new Advice(false,
      "A person looked at this write and closed it as it is; nothing was sent again. Do not call it again: tell the"
          + " user it was handled by a person.");
  private static final Advice UNDONE_BY_PERSON = new Advice(false,
      "A person decided this write must not stand (see person_answer); it was not done again. Do not call it again:"
          + " tell the user.");
  private static final Advice REFUSED = new Advice(false,
      "The call was refused and will be refused again. Do not call it again: change the request or tell the user.");
  private static final Advice NOT_RETRYABLE = new Advice(false,
      "The call failed and calling again with the same arguments will not help. Do not call it again: change the"
          + " request or tell the user.");
  private static final Advice INVALID_ARGUMENTS = new Advice(true,
      "The arguments do not match the tool's input schema; nothing ran. Call it again with corrected arguments.");
  private static final Advice RETRYABLE = new Advice(true,
      "The call failed and nothing was changed; calling it again later may succeed.");

  /** The advice for {@code outcome}: re-calls of unknown writes and escalations first, then the reason, then {@code retryable}. */
  public static Advice adviceFor(ToolOutcome outcome) {
    String reason = outcome.reason() == null ? "" : outcome.reason();
    switch (reason) {
      case "awaiting_approval":
        return AWAITING_APPROVAL;
      case "approval_expired", "approval_used":
        return NEW_APPROVAL_NEEDED;
      case "closed_by_person":
        return CLOSED_BY_PERSON;
      case "compensated", "not_compensable":
        if (outcome.personAnswer() != null) {
          return UNDONE_BY_PERSON;
        }
        break;
      case "approval_denied":
        if (outcome.personAnswer() != null) {
          return DENIED_BY_PERSON;
        }
        break;
      default:
        break;
    }
    if ("outcome_unknown_recall".equals(reason)) {
      return UNKNOWN_RECALLED;
    }
    if (outcome.status() == ToolOutcome.Status.ESCALATED) {
      return ESCALATED;
    }
    switch (reason) {
      case "already_committed":
        return ALREADY_DONE;
      case REPLAYED:
        return ALREADY_DONE_RESULT;
      case "approval_denied", "policy_refusal", "task_limit_reached", "repeated_action", "key_in_use":
        return REFUSED;
      default:
        break;
    }
    if (outcome.status() == ToolOutcome.Status.SUCCESS) {
      return new Advice(false, "The call succeeded.");
    }
    if (outcome.sideEffect() && !outcome.retryable()) {
      return UNKNOWN_WRITE;
    }
    return outcome.retryable() ? RETRYABLE : NOT_RETRYABLE;
  }

  private static ObjectNode object(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      if (node instanceof ObjectNode o) {
        return o;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not an execution contract (a JSON object): " + json, e);
    }
    throw new IllegalArgumentException("not an execution contract (a JSON object): " + json);
  }
}
