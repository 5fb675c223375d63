package dev.hfr.samples.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The sample's HTTP interface: one request to the assistant, or the whole with/without-HFR comparison. */
@RestController
public class ConversationController {

  private final ShopAssistant assistant;
  private final double faultRate;

  public ConversationController(ShopAssistant assistant, @Value("${shop.fault-rate}") double faultRate) {
    this.assistant = assistant;
    this.faultRate = faultRate;
  }

  /**
   * A request to the assistant.
   *
   * @param message what the user says, e.g. {@code Order 2 x SKU-42, reference c-1, e-mail ana@example.com}
   * @param hfr whether the tools run through HFR (default true)
   */
  public record ConversationRequest(String message, Boolean hfr) {}

  @PostMapping("/conversations")
  public ShopAssistant.Conversation converse(@RequestBody ConversationRequest request) {
    if (request.message() == null || request.message().isBlank()) {
      throw new IllegalArgumentException("give a message, e.g. {\"message\":\"Order 2 x SKU-42, reference c-1, e-mail ana@example.com\"}");
    }
    return assistant.converse(request.message(), request.hfr() == null || request.hfr());
  }

  @PostMapping("/reproduction")
  public ShopAssistant.Reproduction reproduce(@RequestParam(defaultValue = "20") int conversations) {
    if (conversations < 1 || conversations > 200) {
      throw new IllegalArgumentException("conversations must be within 1..200, was " + conversations);
    }
    return assistant.reproduce(conversations, faultRate);
  }
}
