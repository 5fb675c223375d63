package dev.hfr.bench.live.tools;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Verify;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.annotations.Degrade;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.Map;

/**
 * The LLM-style endpoint's two model tiers as a tool: the primary model, degrading to the backup model
 * (an equivalent alternative, L2). Answers are verified (V1) before they are accepted.
 */
public class ModelTools {

  private final ToolHttp http;
  private final URI base;

  public ModelTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  /** Asks the primary model. */
  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 4, baseDelayMs = 50, maxDelayMs = 500, on = {Fault.T1, Fault.T2, Fault.T3})
  @Verify(level = VerifyLevel.V1, by = CompletionVerifier.class)
  @Degrade(to = "completeWithBackup", level = DegradeLevel.L2)
  public Completion complete(int task, String prompt) {
    return ask("primary", task, prompt);
  }

  /** Asks the backup model. */
  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 50, maxDelayMs = 500, on = {Fault.T1, Fault.T2, Fault.T3})
  @Verify(level = VerifyLevel.V1, by = CompletionVerifier.class)
  public Completion completeWithBackup(int task, String prompt) {
    return ask("backup", task, prompt);
  }

  private Completion ask(String tier, int task, String prompt) {
    JsonNode m = http.post(base.resolve("/v1/models/" + tier + "/messages"), task, Map.of("prompt", prompt, "max_tokens", 64), null);
    JsonNode content = m.get("content");
    return new Completion(m.path("id").asText(), m.path("model").asText(), content == null ? null : content.asText(),
        m.path("answer_of").asText(""), digest(prompt));
  }

  /** The digest of a correct answer to {@code prompt} (the provider's convention in this benchmark). */
  static String digest(String prompt) {
    return Integer.toHexString(prompt.hashCode() * 31 + 7);
  }
}
