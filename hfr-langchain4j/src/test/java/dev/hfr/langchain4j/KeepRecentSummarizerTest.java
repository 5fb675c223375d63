package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The default summariser keeps system and recent messages and summarises the middle")
class KeepRecentSummarizerTest {

  final ToolExecutionRequest call = ToolExecutionRequest.builder().id("c1").name("checkStock").arguments("{}").build();

  @Test
  void keepsSystemMessagesAndTheTailVerbatim() {
    List<ChatMessage> in = List.of(SystemMessage.from("rules"), UserMessage.from("one"), AiMessage.from("two"),
        UserMessage.from("three"), AiMessage.from("four"), UserMessage.from("five"));

    List<ChatMessage> out = new KeepRecentSummarizer(2, 20).compress(in);

    assertThat(out).hasSize(4);
    assertThat(out.get(0)).isEqualTo(in.get(0));
    assertThat(((SystemMessage) out.get(1)).text())
        .startsWith("Summary of 3 earlier messages").contains("- user: one", "- ai: two", "- user: three");
    assertThat(out.subList(2, 4)).containsExactly(in.get(4), in.get(5));
  }

  @Test
  @DisplayName("never keeps a tool result without the AI message that requested it")
  void neverOrphansAToolResult() {
    List<ChatMessage> in = List.of(UserMessage.from("a"), UserMessage.from("b"), AiMessage.from(call),
        ToolExecutionResultMessage.from(call, "17"), AiMessage.from("there are 17"));

    List<ChatMessage> out = new KeepRecentSummarizer(2, 20).compress(in);

    assertThat(out).hasSize(4);
    assertThat(out.get(1)).isInstanceOf(AiMessage.class);
    assertThat(((AiMessage) out.get(1)).hasToolExecutionRequests()).isTrue();
    assertThat(out.get(2)).isInstanceOf(ToolExecutionResultMessage.class);
  }

  @Test
  void isDeterministic() {
    List<ChatMessage> in = List.of(UserMessage.from("x".repeat(200)), AiMessage.from("y"), UserMessage.from("z"));
    KeepRecentSummarizer s = new KeepRecentSummarizer(1, 10);
    assertThat(s.compress(in)).isEqualTo(s.compress(in));
    assertThat(((SystemMessage) s.compress(in).get(0)).text()).contains("- user: xxxxxxx...");
  }

  @Test
  @DisplayName("answers the same list when there is nothing to compress")
  void nothingToCompress() {
    List<ChatMessage> in = List.of(SystemMessage.from("rules"), UserMessage.from("only"));
    assertThat(new KeepRecentSummarizer(6, 80).compress(in)).isSameAs(in);
  }

  @Test
  void refusesUselessSettings() {
    assertThatThrownBy(() -> new KeepRecentSummarizer(0, 80)).hasMessageContaining("keepLast");
    assertThatThrownBy(() -> new KeepRecentSummarizer(3, 2)).hasMessageContaining("lineChars");
  }
}
