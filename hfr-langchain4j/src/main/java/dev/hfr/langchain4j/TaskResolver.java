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
}
