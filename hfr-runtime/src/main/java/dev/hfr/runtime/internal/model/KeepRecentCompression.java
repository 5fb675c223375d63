package dev.hfr.runtime.internal.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The L1 rung of the model ladder for both adapters: a conversation that overflowed the model's context window
 * (T6) keeps its leading system messages and its last {@code keepLast} messages, and everything in between becomes
 * one system message listing each dropped message as a single clipped line. Deterministic, so a compressed retry is
 * reproducible. Each adapter says what its message types are through {@link Messages}.
 *
 * <p>The kept tail never starts with a tool result whose requesting message was dropped: the cut moves back to that
 * message, because providers reject orphaned tool results.
 */
public final class KeepRecentCompression {

  /** What the compression needs to know of an adapter's message type. */
  public interface Messages<M> {

    boolean isSystem(M message);

    boolean isToolResult(M message);

    /** The message's role as the summary names it ({@code user}, {@code ai}, {@code tool}, ...). */
    String role(M message);

    /** The message's text for the summary (a tool request as the tools it called). */
    String text(M message);

    /** A system message carrying {@code text}. */
    M system(String text);
  }

  private final int keepLast;
  private final int lineChars;

  /**
   * @param keepLast how many of the most recent messages are kept verbatim (at least 1)
   * @param lineChars how many characters of each dropped message the summary keeps (at least 8)
   */
  public KeepRecentCompression(int keepLast, int lineChars) {
    if (keepLast < 1) {
      throw new IllegalArgumentException("keepLast must be at least 1, was " + keepLast);
    }
    if (lineChars < 8) {
      throw new IllegalArgumentException("lineChars must be at least 8, was " + lineChars);
    }
    this.keepLast = keepLast;
    this.lineChars = lineChars;
  }

  /** A compressed copy of {@code messages}, or {@code messages} itself when nothing can be dropped. */
  public <M> List<M> compress(List<M> messages, Messages<M> kind) {
    int head = 0;
    while (head < messages.size() && kind.isSystem(messages.get(head))) {
      head++;
    }
    int tailStart = Math.max(head, messages.size() - keepLast);
    while (tailStart > head && kind.isToolResult(messages.get(tailStart))) {
      tailStart--;
    }
    if (tailStart <= head) {
      return messages;
    }
    List<M> out = new ArrayList<>(head + 1 + messages.size() - tailStart);
    out.addAll(messages.subList(0, head));
    out.add(kind.system(summary(messages.subList(head, tailStart), kind)));
    out.addAll(messages.subList(tailStart, messages.size()));
    return out;
  }

  private <M> String summary(List<M> dropped, Messages<M> kind) {
    StringBuilder sb = new StringBuilder("Summary of ").append(dropped.size())
        .append(" earlier messages, compressed because the conversation exceeded the context window:");
    for (M m : dropped) {
      String text = kind.text(m);
      sb.append('\n').append("- ").append(kind.role(m).toLowerCase(Locale.ROOT)).append(": ").append(clip(text == null ? "" : text));
    }
    return sb.toString();
  }

  private String clip(String text) {
    String oneLine = text.replace('\n', ' ').strip();
    return oneLine.length() <= lineChars ? oneLine : oneLine.substring(0, lineChars - 3) + "...";
  }
}
