package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("What the real OpenAI client throws is classified into F2D-9 (paper Table 11)")
class ModelFailureClassifierTest {

  static ScriptedOpenAiServer server;
  final ModelFailureClassifier classifier = new ModelFailureClassifier(new DefaultFailureClassifier());

  @BeforeAll
  static void start() {
    server = ScriptedOpenAiServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Stream<Arguments> wireFaults() {
    return Stream.of(
        Arguments.of("HTTP 503", (Supplier<Reply>) () -> Reply.serverError(503), Fault.T1),
        Arguments.of("HTTP 500", (Supplier<Reply>) () -> Reply.serverError(500), Fault.T1),
        Arguments.of("HTTP 429 with Retry-After", (Supplier<Reply>) () -> Reply.rateLimited(3), Fault.T2),
        // the runtime classes an exhausted quota as permanent for this account (rule http.429.quota)
        Arguments.of("HTTP 429 insufficient_quota", (Supplier<Reply>) Reply::quotaExhausted, Fault.T7),
        Arguments.of("HTTP 529 overloaded_error", (Supplier<Reply>) Reply::overloaded, Fault.T4),
        Arguments.of("HTTP 404 model_not_found", (Supplier<Reply>) Reply::modelNotFound, Fault.T5),
        Arguments.of("HTTP 400 context_length_exceeded", (Supplier<Reply>) Reply::contextLengthExceeded, Fault.T6),
        Arguments.of("HTTP 401 invalid_api_key", (Supplier<Reply>) Reply::unauthorized, Fault.T7),
        Arguments.of("HTTP 400 content_policy_violation", (Supplier<Reply>) Reply::contentPolicyViolation, Fault.T8),
        Arguments.of("assistant refusal", (Supplier<Reply>) () -> Reply.refusal("I can't help with that."), Fault.T8));
  }

  @ParameterizedTest(name = "{0} -> {2}")
  @MethodSource("wireFaults")
  void classifiesWhatTheClientThrows(String name, Supplier<Reply> reply, Fault expected) {
    String model = "classify-" + name.replaceAll("[^a-z0-9]", "");
    server.script(model, reply.get());
    ChatModel client = ModelFixtures.openAi(server, model);

    Throwable thrown = catchThrowable(() -> client.chat("hello"));

    assertThat(thrown).as("the client throws for %s", name).isNotNull();
    ModelFailure failure = classifier.classify(thrown, Duration.ofMillis(5));
    assertThat(failure.fault()).as("rule %s", failure.classification().rule()).isEqualTo(expected);
  }

  @Test
  @DisplayName("Retry-After of a 429 reaches the classifier through the observing HTTP client")
  void retryAfterSurvivesLangChain4jsExceptionMapping() {
    server.script("retry-after", Reply.rateLimited(7));
    Throwable thrown = catchThrowable(() -> ModelFixtures.openAi(server, "retry-after").chat("hello"));

    ModelFailure failure = classifier.classify(thrown, Duration.ZERO);

    assertThat(failure.fault()).isEqualTo(Fault.T2);
    assertThat(failure.classification().retryAfterMillis()).isEqualTo(7000);
    assertThat(failure.quotaExhausted()).isFalse();
  }

  @Test
  @DisplayName("an exhausted quota is told apart from a momentary rate limit")
  void quotaIsNotAMomentaryLimit() {
    server.script("quota", Reply.quotaExhausted());
    Throwable thrown = catchThrowable(() -> ModelFixtures.openAi(server, "quota").chat("hello"));

    assertThat(classifier.classify(thrown, Duration.ZERO).quotaExhausted()).isTrue();
  }

  @Test
  @DisplayName("a response stopped by the content filter is a T8 refusal")
  void contentFilterFinishIsT8() {
    server.script("filtered", Reply.contentFilterFinish());
    ChatResponse response = ModelFixtures.openAi(server, "filtered").chat(
        dev.langchain4j.model.chat.request.ChatRequest.builder()
            .messages(dev.langchain4j.data.message.UserMessage.from("hello")).build());

    ModelFailure failure = classifier.classify(response);

    assertThat(failure).isNotNull();
    assertThat(failure.fault()).isEqualTo(Fault.T8);
  }

  @Test
  @DisplayName("a read timeout of the client is T3")
  void readTimeoutIsT3() {
    server.script("slow", Reply.text("late").after(Duration.ofMillis(800)));
    Throwable thrown = catchThrowable(() -> ModelFixtures.openAi(server, "slow", Duration.ofMillis(200)).chat("hello"));

    assertThat(classifier.classify(thrown, Duration.ofMillis(200)).fault()).isEqualTo(Fault.T3);
  }
}
