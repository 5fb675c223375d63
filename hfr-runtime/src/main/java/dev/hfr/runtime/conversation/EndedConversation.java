package dev.hfr.runtime.conversation;

import dev.hfr.runtime.TaskReport;

/**
 * A conversation whose task was closed, as {@link ConversationTasks} hands it to its listener.
 *
 * @param conversationId the id the framework gave the conversation (a memory id, a conversation id)
 * @param taskId the id of the task it ran in ({@code conversation-<id>-<start>})
 * @param report the task's report when it was closed
 * @param reason why it ended
 */
public record EndedConversation(Object conversationId, String taskId, TaskReport report, Reason reason) {

  /** Why a conversation's task ended. */
  public enum Reason {
    /** Nothing ran in it for the idle timeout. */
    IDLE,
    /** {@link ConversationTasks#end} was called. */
    ENDED
  }
}
