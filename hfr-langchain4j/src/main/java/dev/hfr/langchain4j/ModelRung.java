package dev.hfr.langchain4j;

import dev.hfr.annotations.DegradeLevel;
import dev.langchain4j.model.chat.ChatModel;

/**
 * One rung of a chat-model degradation ladder: the model, the name it is recorded under, and its
 * ladder level ({@code L0} for the primary model, {@code L2} for a same-tier model or provider,
 * {@code L3} for a smaller or cheaper model).
 *
 * @param name the rung's name in decisions and reports (e.g. {@code gpt-4o@openai})
 * @param level the ladder level (paper Table 5)
 * @param model the LangChain4j model called on this rung
 */
public record ModelRung(String name, DegradeLevel level, ChatModel model) {

  public ModelRung {
    ModelLadder.checkRung(name, level, model);
  }
}
