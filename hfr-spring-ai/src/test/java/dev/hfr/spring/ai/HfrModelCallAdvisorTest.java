package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;

/**
 * HFR's model ladder on each model request of a {@code ChatClient}, inside Spring AI's tool loop: a request that fails
 * is retried as the ladder decides, a 429 no sooner than its {@code Retry-After}, and the tool the model called before
 * is not called again.
 */
class HfrModelCallAdvisorTest {

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .escalationHandler(new EscalationQueue()).sleeper(nanos -> {}).build();
  private final ShopTools tools = ShopTools_Recovering.create(hfr);
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final List<Long> waitsNanos = new CopyOnWriteArrayList<>();
  private final List<ModelDecision> decisions = new CopyOnWriteArrayList<>();
  private final ChatClient chat = ChatClient.builder(model)
      .defaultAdvisors(HfrAdvisor.of(hfr), new HfrModelCallAdvisor(() -> HfrChatModel.builder()
          .classifier(new DefaultFailureClassifier()).sleeper(waitsNanos::add).listener(decisions::add).decisionSink(hfr)))
      .defaultTools(tools)
      .build();

  @AfterEach
  void close() {
    hfr.close();
  }

  private static HttpCallException rateLimited(String retryAfterSeconds) {
    return new HttpCallException(429, Map.of("retry-after", List.of(retryAfterSeconds)), "{\"error\":\"rate limited\"}");
  }

  @Test
  void aRateLimitedRoundIsRetriedAfterItsRetryAfterAndTheToolBeforeItRunsOnce() {
    model.thenCall("search", "{\"query\":\"shoes\"}").thenFail(rateLimited("2")).thenSay("Found shoes.");

    String answer = chat.prompt().user("Find shoes").call().content();

    assertThat(answer).isEqualTo("Found shoes.");
    assertThat(tools.searches).as("only the model request was repeated").hasValue(1);
    assertThat(waitsNanos).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LONG)
        .isGreaterThanOrEqualTo(2_000_000_000L);
    assertThat(decisions).extracting(ModelDecision::action).contains("RETRY");
  }

  @Test
  void aStreamedRequestThatFailsBeforeItsFirstChunkIsRetriedToo() {
    model.thenCall("search", "{\"query\":\"shoes\"}")
        .thenFail(new HttpCallException(503, Map.of(), "{\"error\":\"unavailable\"}")).thenSay("Found shoes.");

    String answer = chat.prompt().user("Find shoes").stream().content().collect(Collectors.joining()).block();

    assertThat(answer).isEqualTo("Found shoes.");
    assertThat(tools.searches).hasValue(1);
    assertThat(waitsNanos).hasSize(1);
  }
}
