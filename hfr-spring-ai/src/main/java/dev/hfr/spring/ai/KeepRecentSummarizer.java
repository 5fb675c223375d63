package dev.hfr.spring.ai;

import dev.hfr.runtime.internal.model.KeepRecentCompression;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * The default {@link ContextSummarizer}, the same compression as the LangChain4j adapter's: keeps the leading system
 * messages and the last {@code keepLast} messages, and replaces everything in between by one system message listing
 * each dropped message as a single clipped line; a kept tail never starts with an orphaned tool response.
 */
public final class KeepRecentSummarizer implements ContextSummarizer {

  /** Spring AI's message types, as the shared compression sees them. */
  private static final KeepRecentCompression.Messages<Message> MESSAGES = new KeepRecentCompression.Messages<>() {
    @Override
    public boolean isSystem(Message m) {
      return m.getMessageType() == MessageType.SYSTEM;
    }

    @Override
    public boolean isToolResult(Message m) {
      return m.getMessageType() == MessageType.TOOL;
    }

    @Override
    public String role(Message m) {
      return m.getMessageType().name();
    }

    @Override
    public String text(Message m) {
      if (m instanceof AssistantMessage a && a.hasToolCalls()) {
        return a.getToolCalls().stream().map(AssistantMessage.ToolCall::name).collect(Collectors.joining(" ", "called ", ""));
      }
      if (m instanceof ToolResponseMessage t) {
        return t.getResponses().stream().map(r -> r.name() + " returned " + r.responseData()).collect(Collectors.joining("; "));
      }
      return m.getText();
    }

    @Override
    public Message system(String text) {
      return new SystemMessage(text);
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
  public List<Message> compress(List<Message> messages) {
    return compression.compress(messages, MESSAGES);
  }
}
