package dev.hfr.langchain4j;

import dev.hfr.runtime.internal.model.KeepRecentCompression;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;

/**
 * The default {@link ContextSummarizer}: keeps the leading system messages and the last {@code keepLast}
 * messages, and replaces everything in between by one system message that lists each dropped message as
 * a single clipped line. Deterministic — the same input always gives the same output — so a compressed
 * retry is reproducible and testable.
 *
 * <p>The kept tail never starts with a tool result whose requesting AI message was dropped: the cut
 * moves back to that AI message, because providers reject orphaned tool results.
 */
public final class KeepRecentSummarizer implements ContextSummarizer {

  /** LangChain4j's message types, as the shared compression sees them. */
  private static final KeepRecentCompression.Messages<ChatMessage> MESSAGES = new KeepRecentCompression.Messages<>() {
    @Override
    public boolean isSystem(ChatMessage m) {
      return m instanceof SystemMessage;
    }

    @Override
    public boolean isToolResult(ChatMessage m) {
      return m instanceof ToolExecutionResultMessage;
    }

    @Override
    public String role(ChatMessage m) {
      return m.type().name();
    }

    @Override
    public String text(ChatMessage m) {
      return textOf(m);
    }

    @Override
    public ChatMessage system(String text) {
      return SystemMessage.from(text);
    }
  };

  private final KeepRecentCompression compression;

  /**
   * @param keepLast how many of the most recent messages are kept verbatim (at least 1)
   * @param lineChars how many characters of each dropped message the summary keeps (at least 8)
   */
  public KeepRecentSummarizer(int keepLast, int lineChars) {
    this.compression = new KeepRecentCompression(keepLast, lineChars);
  }

  /** Keeps the last 6 messages and 80 characters of each summarised one. */
  public KeepRecentSummarizer() {
    this(6, 80);
  }

  @Override
  public List<ChatMessage> compress(List<ChatMessage> messages) {
    return compression.compress(messages, MESSAGES);
  }

  private static String textOf(ChatMessage m) {
    if (m instanceof UserMessage u) {
      return u.hasSingleText() ? u.singleText() : "(non-text content)";
    }
    if (m instanceof AiMessage a) {
      if (a.hasToolExecutionRequests()) {
        StringBuilder calls = new StringBuilder("called ");
        a.toolExecutionRequests().forEach(r -> calls.append(r.name()).append(' '));
        return calls.toString().trim();
      }
      return a.text() == null ? "" : a.text();
    }
    if (m instanceof ToolExecutionResultMessage t) {
      return t.toolName() + " returned " + t.text();
    }
    if (m instanceof SystemMessage s) {
      return s.text();
    }
    return m.toString();
  }
}
