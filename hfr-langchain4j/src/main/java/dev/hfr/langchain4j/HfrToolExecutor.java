package dev.hfr.langchain4j;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolCallException;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link ToolExecutor} LangChain4j calls for one HFR-protected tool. The call itself goes to the
 * generated {@code Foo_Recovering} proxy through LangChain4j's own executor (argument binding stays
 * LangChain4j's), so it runs through HFR; what this decorator adds is the ending: a call HFR could not
 * complete reaches the model as the article's tool execution contract (see {@link ToolResultContract}),
 * with {@code isError = true} and the {@code ToolOutcome} in the result's attributes under
 * {@value #OUTCOME_ATTRIBUTE}, never as a stack trace.
 *
 * <p>Nothing here reflects per call: the tool's name and risk are fixed when the executor is built.
 */
public final class HfrToolExecutor implements ToolExecutor {

  /** The attribute of a failed {@link ToolExecutionResult} holding HFR's {@code ToolOutcome}. */
  public static final String OUTCOME_ATTRIBUTE = "hfr.outcome";

  private final ToolExecutor delegate;
  private final String toolName;
  private final Risk risk;

  /**
   * @param delegate LangChain4j's executor of the proxy method, built to propagate the tool's exceptions
   * @param toolName the tool's HFR name ({@code SimpleClassName.method})
   * @param risk the tool's declared risk, used only when HFR did not handle a failure itself
   */
  public HfrToolExecutor(ToolExecutor delegate, String toolName, Risk risk) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.toolName = Objects.requireNonNull(toolName, "toolName");
    this.risk = Objects.requireNonNull(risk, "risk");
  }

  public String toolName() {
    return toolName;
  }

  public Risk risk() {
    return risk;
  }

  @Override
  public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
    try {
      return delegate.executeWithContext(request, context);
    } catch (ToolArgumentsException e) {
      // The model's arguments did not bind: nothing ran. A contract mismatch (T5) the model can fix.
      return error(ToolResultContract.renderUnmanaged(toolName, risk, "invalid_arguments", Fault.T5, true, false), null);
    } catch (ToolExecutionException e) {
      ToolCallException hfr = findToolCallException(e);
      if (hfr != null) {
        return error(ToolResultContract.render(hfr.outcome()), hfr.outcome());
      }
      // HFR did not handle it (mode OFF, or a failure outside the engine): an unknown failure of a write
      // may have committed, so the model is told to verify rather than to repeat it.
      return error(ToolResultContract.renderUnmanaged(toolName, risk, "unhandled_failure", Fault.UNCLASSIFIED,
          risk == Risk.R0, true), null);
    }
  }

  @Override
  public String execute(ToolExecutionRequest request, Object memoryId) {
    return executeWithContext(request, InvocationContext.builder().chatMemoryId(memoryId).build()).resultText();
  }

  private static ToolExecutionResult error(String json, Object outcome) {
    ToolExecutionResult.Builder b = ToolExecutionResult.builder().isError(true).resultText(json);
    if (outcome != null) {
      b.attributes(Map.of(OUTCOME_ATTRIBUTE, outcome));
    }
    return b.build();
  }

  private static ToolCallException findToolCallException(Throwable t) {
    for (int depth = 0; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof ToolCallException tce) {
        return tce;
      }
    }
    return null;
  }
}
