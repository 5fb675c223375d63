package dev.hfr.bench.live.tools;

import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.util.Map;

/**
 * A deterministic (V1) check of a model answer: it has content, and it answers the prompt that was
 * asked (a plausible answer to another question is rejected).
 */
public final class CompletionVerifier implements Verifier<Completion> {

  @Override
  public Verdict verify(Completion c) {
    if (c.content() == null) {
      return Verdict.reject("missing_content", Map.of("id", c.id()));
    }
    if (!c.expectedDigest().equals(c.answerOf())) {
      return Verdict.reject("answers_another_prompt", Map.of("id", c.id()));
    }
    return Verdict.accept();
  }
}
