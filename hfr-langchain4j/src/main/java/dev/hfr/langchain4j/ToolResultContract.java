package dev.hfr.langchain4j;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.contract.ToolExecutionContract;

/**
 * The article's tool execution contract as the LangChain4j adapter hands it to the model: the runtime's
 * {@link ToolExecutionContract}, which the Spring AI adapter renders too, so both show a model the same JSON.
 */
public final class ToolResultContract {

  private ToolResultContract() {}

  /** The contract of an outcome HFR produced. */
  public static String render(ToolOutcome outcome) {
    return ToolExecutionContract.render(outcome);
  }

  /** A successful outcome with its result embedded, for degraded results the model must see as such. */
  public static String renderSuccess(ToolOutcome outcome, String resultText) {
    return ToolExecutionContract.renderSuccess(outcome, resultText);
  }

  /** The contract for a failure HFR did not handle; see {@link ToolExecutionContract#renderUnmanaged}. */
  public static String renderUnmanaged(String tool, Risk risk, String errorType, Fault fault, boolean retryable, boolean executed) {
    return ToolExecutionContract.renderUnmanaged(tool, risk, errorType, fault, retryable, executed);
  }
}
