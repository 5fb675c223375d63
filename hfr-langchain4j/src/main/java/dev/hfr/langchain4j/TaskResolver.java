package dev.hfr.langchain4j;

import dev.hfr.runtime.TaskScope;
import dev.langchain4j.invocation.InvocationContext;

/**
 * Which task a tool call of an AI service belongs to, from LangChain4j's invocation context (its chat
 * memory id, its invocation parameters). The call runs bound to that task, on whatever thread LangChain4j
 * runs it. {@link ConversationTasks} is the usual one: one task per conversation (chat memory id).
 */
@FunctionalInterface
public interface TaskResolver {

  /** The task of the call in {@code context}, or {@code null} to run it in the task current on its thread (if any). */
  TaskScope taskOf(InvocationContext context);

  /** Whether a call's writes are keyed by the model's tool-call id ({@link #keyedByToolCallIds}); false by default. */
  default boolean keysFromToolCallIds() {
    return false;
  }

  /**
   * This resolver, with the writes of each tool call keyed by the id the model gave that call
   * ({@code ToolExecutionRequest.id()}, e.g. OpenAI's {@code call_...}) instead of by how many equal writes the task
   * made before: a conversation replayed from its memory (after a crash, a resume) runs each call under its old key
   * and finds its ledger record. A call without an id keeps the default key. A new call the model makes (a new id)
   * is a new write.
   */
  default TaskResolver keyedByToolCallIds() {
    TaskResolver tasks = this;
    return new TaskResolver() {
      @Override
      public TaskScope taskOf(InvocationContext context) {
        return tasks.taskOf(context);
      }

      @Override
      public boolean keysFromToolCallIds() {
        return true;
      }
    };
  }
}
