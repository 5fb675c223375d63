package dev.hfr.spring.ai;

import java.util.List;
import org.springframework.ai.chat.messages.Message;

/**
 * Shrinks a conversation that overflowed the model's context window (a T6 failure) before {@link HfrChatModel} sends
 * it again — the L1 rung of the ladder. The result must be strictly shorter than the input, keep the system messages,
 * and stay a valid conversation for the provider (a tool response is never kept without the assistant message that
 * requested it). The default, {@link KeepRecentSummarizer}, is deterministic; an implementation may call a model.
 */
@FunctionalInterface
public interface ContextSummarizer {

  /**
   * Returns a compressed copy of {@code messages}, or the same list when nothing can be compressed (then the overflow
   * is reported as a failure instead of resending the same request).
   */
  List<Message> compress(List<Message> messages);
}
