package dev.hfr.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
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

  private final int keepLast;
  private final int lineChars;

  /**
   * @param keepLast how many of the most recent messages are kept verbatim (at least 1)
   * @param lineChars how many characters of each dropped message the summary keeps (at least 8)
   */
  public KeepRecentSummarizer(int keepLast, int lineChars) {
    if (keepLast < 1) {
      throw new IllegalArgumentException("keepLast must be at least 1, was " + keepLast);
    }
    if (lineChars < 8) {
      throw new IllegalArgumentException("lineChars must be at least 8, was " + lineChars);
    }
    this.keepLast = keepLast;
    this.lineChars = lineChars;
  }

  /** Keeps the last 6 messages and 80 characters of each summarised one. */
  public KeepRecentSummarizer() {
    this(6, 80);
  }

  @Override
  public List<ChatMessage> compress(List<ChatMessage> messages) {
    int head = 0;
    while (head < messages.size() && messages.get(head) instanceof SystemMessage) {
      head++;
    }
    int tailStart = Math.max(head, messages.size() - keepLast);
    // Never start the kept tail with a tool result: its AI message (the tool request) must come along.
    while (tailStart > head && messages.get(tailStart) instanceof ToolExecutionResultMessage) {
      tailStart--;
    }
    if (tailStart <= head) {
      return messages;
    }
    List<ChatMessage> out = new ArrayList<>(head + 1 + messages.size() - tailStart);
    out.addAll(messages.subList(0, head));
    out.add(SystemMessage.from(summary(messages.subList(head, tailStart))));
    out.addAll(messages.subList(tailStart, messages.size()));
    return out;
  }

  private String summary(List<ChatMessage> dropped) {
    StringBuilder sb = new StringBuilder("Summary of ").append(dropped.size())
        .append(" earlier messages, compressed because the conversation exceeded the context window:");
    for (ChatMessage m : dropped) {
      sb.append('\n').append("- ").append(m.type().name().toLowerCase(java.util.Locale.ROOT)).append(": ")
          .append(clip(textOf(m)));
    }
    return sb.toString();
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

  private String clip(String text) {
    String oneLine = text.replace('\n', ' ').strip();
    return oneLine.length() <= lineChars ? oneLine : oneLine.substring(0, lineChars - 3) + "...";
  }
}
