package dev.hfr.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import java.util.List;

/**
 * Shrinks a conversation that overflowed the model's context window (a T6 failure) before it is sent
 * again — the L1 rung of the ladder. The result must be strictly shorter than the input, keep the
 * system messages, and stay a valid conversation for the provider (a tool result is never kept without
 * the AI message that requested it).
 *
 * <p>The default, {@link KeepRecentSummarizer}, is deterministic; an implementation may call a model.
 */
@FunctionalInterface
public interface ContextSummarizer {

  /**
   * Returns a compressed copy of {@code messages}, or the same list when nothing can be compressed (in
   * which case the overflow is reported as a failure instead of resending the same request).
   */
  List<ChatMessage> compress(List<ChatMessage> messages);
}
