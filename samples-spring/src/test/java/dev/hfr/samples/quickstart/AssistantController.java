package dev.hfr.samples.quickstart;

import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The chat endpoint of docs/getting-started/spring.md: a ChatClient given the protected tools. */
// tag::controller[]
@RestController
public class AssistantController {

  private final ChatClient chat;

  public AssistantController(ChatClient.Builder chat,
      @Qualifier("hfrToolCallbacks") ToolCallbackProvider tools) {  // the starter's: every @Tool through HFR
    this.chat = chat.defaultToolCallbacks(tools).build();
  }

  @PostMapping("/chat/{conversation}")
  public String chat(@PathVariable String conversation, @RequestBody String message) {
    return chat.prompt().user(message)
        .toolContext(Map.of(ChatMemory.CONVERSATION_ID, conversation))  // one HFR task per conversation
        .call().content();
  }
}
// end::controller[]
