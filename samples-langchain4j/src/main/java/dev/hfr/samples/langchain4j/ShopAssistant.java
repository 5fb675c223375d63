package dev.hfr.samples.langchain4j;

import dev.langchain4j.service.SystemMessage;

/** The AI service: LangChain4j implements it over the chat model and the tools. */
// tag::service[]
public interface ShopAssistant {

  @SystemMessage("You are the shop's order assistant. Check stock before ordering. Never order twice.")
  String chat(String userMessage);
}
// end::service[]
