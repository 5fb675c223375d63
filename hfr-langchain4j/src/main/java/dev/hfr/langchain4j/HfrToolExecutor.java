package dev.hfr.langchain4j;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.conversation.ModelAnswers;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@link ToolExecutor} LangChain4j calls for one HFR-protected tool. The call itself goes to the
 * generated {@code Foo_Recovering} proxy through LangChain4j's own executor (argument binding stays
 * LangChain4j's), so it runs through HFR; what this decorator adds is the ending: a call HFR could not
 * complete reaches the model as the article's tool execution contract (see {@link ToolResultContract}) with
 * the runtime's {@link ModelAnswers} advice — what happened and whether calling again helps ({@code call_again},
 * {@code message}) —, with {@code isError = true} and the {@code ToolOutcome} in the result's attributes under
 * {@value #OUTCOME_ATTRIBUTE}, never as a stack trace.
 *
 * <p>A result that came from a {@code @Degrade} rung reaches the model as the contract too, with the
 * result embedded: {@code {"status":"success",...,"degraded":true,"degrade_level":"L3",...,"result":"..."}}
 * (see {@link ToolResultContract#renderSuccess}), so the model knows it reads a fallback. An undegraded
 * result is passed on unchanged. The engine says whether a call was degraded in the outcome of the task
 * the call joined ({@link TaskScope#lastOutcome()}), so this needs the task: give the executor a {@link
 * TaskResolver} ({@link ConversationTasks}: one task per conversation) or a supplier of the caller's open
 * {@link TaskScope}; the call runs bound to that task, on whichever thread LangChain4j runs it. Without
 * one (or outside a task) results are passed on as they are. If one task runs several calls of the same tool at once, an outcome could be matched to the wrong
 * call; LangChain4j runs a turn's tool calls one after another unless told otherwise.
 *
 * <p>Nothing here reflects per call: the tool's name and risk are fixed when the executor is built.
 */
public final class HfrToolExecutor implements ToolExecutor {

  /** The attribute of a failed or degraded {@link ToolExecutionResult} holding HFR's {@code ToolOutcome}. */
  public static final String OUTCOME_ATTRIBUTE = "hfr.outcome";

  private final ToolExecutor delegate;
  private final String toolName;
  private final Risk risk;
  private final TaskResolver tasks;

  /**
   * @param delegate LangChain4j's executor of the proxy method, built to propagate the tool's exceptions
   * @param toolName the tool's HFR name ({@code SimpleClassName.method})
   * @param risk the tool's declared risk, used only when HFR did not handle a failure itself
   */
  public HfrToolExecutor(ToolExecutor delegate, String toolName, Risk risk) {
    this(delegate, toolName, risk, context -> null);
  }

  /**
   * @param delegate LangChain4j's executor of the proxy method, built to propagate the tool's exceptions
   * @param toolName the tool's HFR name ({@code SimpleClassName.method})
   * @param risk the tool's declared risk, used only when HFR did not handle a failure itself
   * @param currentTask the task the caller has open, or a supplier answering {@code null} when none; read
   *     once per call, to tell the model when its result is degraded
   */
  public HfrToolExecutor(ToolExecutor delegate, String toolName, Risk risk, Supplier<TaskScope> currentTask) {
    this(delegate, toolName, risk, resolverOf(currentTask));
  }

  /**
   * @param delegate LangChain4j's executor of the proxy method, built to propagate the tool's exceptions
   * @param toolName the tool's HFR name ({@code SimpleClassName.method})
   * @param risk the tool's declared risk, used only when HFR did not handle a failure itself
   * @param tasks the task of each call (e.g. {@link ConversationTasks}: its conversation's); the call runs
   *     bound to it
   */
  public HfrToolExecutor(ToolExecutor delegate, String toolName, Risk risk, TaskResolver tasks) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.toolName = Objects.requireNonNull(toolName, "toolName");
    this.risk = Objects.requireNonNull(risk, "risk");
    this.tasks = Objects.requireNonNull(tasks, "tasks");
  }

  private static TaskResolver resolverOf(Supplier<TaskScope> currentTask) {
    Objects.requireNonNull(currentTask, "currentTask");
    return context -> currentTask.get();
  }

  public String toolName() {
    return toolName;
  }

  public Risk risk() {
    return risk;
  }

  @Override
  public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
    if (tasks instanceof ConversationTasks conversations) {
      // The conversation is joined for the length of the call: its task is current and it is not idle meanwhile.
      ConversationTasks.AutoCloseableTask joined = conversations.join(context);
      if (joined == null) {
        return executeIn(null, request, context);
      }
      try {
        return executeIn(joined.task(), request, context);
      } finally {
        joined.leave().run();
      }
    }
    TaskScope task = tasks.taskOf(context);
    if (task == null) {
      return executeIn(null, request, context);
    }
    // The call joins its task on whatever thread LangChain4j runs it (its own executor for parallel tool calls).
    AutoCloseable binding = task.bindCurrentThread();
    try {
      return executeIn(task, request, context);
    } finally {
      closeQuietly(binding);
    }
  }

  private static void closeQuietly(AutoCloseable binding) {
    try {
      binding.close();
    } catch (Exception e) {
      throw new IllegalStateException("unbinding the task failed", e);
    }
  }

  private ToolExecutionResult executeIn(TaskScope task, ToolExecutionRequest request, InvocationContext context) {
    ToolOutcome before = task == null ? null : task.lastOutcome();
    String callId = task != null && tasks.keysFromToolCallIds() ? request.id() : null;
    StepScope step = callId == null || callId.isBlank() ? null : task.step("tool-call:" + callId);
    try {
      ToolExecutionResult result = delegate.executeWithContext(request, context);
      return task == null ? result : markIfDegraded(result, before, task.lastOutcome());
    } catch (ToolArgumentsException e) {
      // The model's arguments did not bind: nothing ran. A contract mismatch (T5) the model can fix.
      return error(ModelAnswers.withAdvice(ToolResultContract.renderUnmanaged(toolName, risk, "invalid_arguments", Fault.T5,
          true, false)), null);
    } catch (ToolExecutionException e) {
      ToolCallException hfr = findToolCallException(e);
      if (hfr != null) {
        return error(ModelAnswers.render(hfr.outcome()), hfr.outcome());
      }
      // HFR did not handle it (mode OFF, or a failure outside the engine): an unknown failure of a write
      // may have committed, so the model is told to verify rather than to repeat it.
      return error(ModelAnswers.withAdvice(ToolResultContract.renderUnmanaged(toolName, risk, "unhandled_failure",
          Fault.UNCLASSIFIED, risk == Risk.R0, true)), null);
    } finally {
      if (step != null) {
        step.close();
      }
    }
  }

  @Override
  public String execute(ToolExecutionRequest request, Object memoryId) {
    return executeWithContext(request, InvocationContext.builder().chatMemoryId(memoryId).build()).resultText();
  }

  /**
   * The result as the contract when the call it came from was degraded or answered from the ledger (a replay);
   * otherwise unchanged. The call's
   * outcome is the task's last one if it is new (not the one seen before the call) and of this tool.
   */
  private ToolExecutionResult markIfDegraded(ToolExecutionResult result, ToolOutcome before, ToolOutcome after) {
    if (after == null || after == before || after.status() != ToolOutcome.Status.SUCCESS || !toolName.equals(after.tool())) {
      return result;
    }
    String text;
    if (ModelAnswers.isReplay(after)) {
      // The model called a write its conversation already made: it reads the recorded result, marked as such.
      text = ModelAnswers.renderReplay(after, result.resultText());
    } else if (after.degraded()) {
      text = ToolResultContract.renderSuccess(after, result.resultText());
    } else {
      return result;
    }
    return ToolExecutionResult.builder()
        .isError(false)
        .resultText(text)
        .result(result.result())
        .attributes(Map.of(OUTCOME_ATTRIBUTE, after))
        .build();
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
