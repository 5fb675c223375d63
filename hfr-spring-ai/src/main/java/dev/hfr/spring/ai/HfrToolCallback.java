package dev.hfr.spring.ai;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.contract.ToolExecutionContract;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * One tool as the model calls it: Spring AI's callback of the proxy's method, with two changes. A failure HFR could
 * not recover (failed, escalated) is answered with the article's execution contract — status, error type, fault,
 * retryable, side effect, artifact references, verification required — so the model learns that an order of
 * unknown outcome must not simply be placed again, where Spring AI would hand it the exception's message. And an
 * idempotency key the model sends despite the schema is dropped: the proxy then passes the ledger key.
 */
public final class HfrToolCallback implements ToolCallback {

  /**
   * The {@link ToolContext} entry holding a stable id the caller binds to the tool calls of a conversation turn
   * ({@code chatClient.prompt().toolContext(Map.of(HfrToolCallback.STEP_ID, turnId))}): the writes of that turn are
   * then keyed by this id, the tool and the arguments instead of by how many equal writes the task made before, so a
   * replay of the turn — or the model calling the same write again in it — gets the same idempotency key. Spring AI
   * 2.0 does not hand a callback the model's tool-call id; where a conversation has one, bind it here.
   */
  public static final String STEP_ID = "hfr.step-id";

  private final ToolCallback delegate;
  private final String toolName;
  private final Risk risk;
  private final String keyProperty;

  /**
   * @param delegate Spring AI's callback, invoking the proxy
   * @param toolName HFR's name of the tool, {@code SimpleClass.method}
   * @param keyProperty the argument the model must not supply, or {@code null}
   */
  public HfrToolCallback(ToolCallback delegate, String toolName, Risk risk, String keyProperty) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.toolName = Objects.requireNonNull(toolName, "toolName");
    this.risk = Objects.requireNonNull(risk, "risk");
    this.keyProperty = keyProperty;
  }

  @Override
  public ToolDefinition getToolDefinition() {
    return delegate.getToolDefinition();
  }

  @Override
  public ToolMetadata getToolMetadata() {
    return delegate.getToolMetadata();
  }

  /** HFR's name of the tool ({@code SimpleClass.method}) and its risk, for logs and tests. */
  @Override
  public String toString() {
    return "HfrToolCallback[" + toolName + ", " + risk + "]";
  }

  @Override
  public String call(String toolInput) {
    return call(toolInput, null);
  }

  @Override
  public String call(String toolInput, ToolContext toolContext) {
    String input = keyProperty == null ? toolInput : ToolArguments.withoutArgument(toolInput, keyProperty);
    String stepId = toolContext != null && toolContext.getContext().get(STEP_ID) instanceof String id && !id.isBlank() ? id : null;
    StepScope step = stepId == null ? null : StepScope.open(stepId);
    try {
      return toolContext == null ? delegate.call(input) : delegate.call(input, toolContext);
    } catch (RuntimeException e) {
      ToolCallException hfr = hfrFailure(e);
      if (hfr == null) {
        throw e;
      }
      return ToolExecutionContract.render(hfr.outcome());
    } finally {
      if (step != null) {
        step.close();
      }
    }
  }

  private static ToolCallException hfrFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ToolCallException e) {
        return e;
      }
    }
    return null;
  }
}
