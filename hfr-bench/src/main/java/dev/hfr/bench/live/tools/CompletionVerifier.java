package dev.hfr.bench.live.tools;

import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.util.Map;

/**
 * A (V1) check of a model answer: it has content, and it answers the prompt that was asked. The content
 * check never errs; the judgement of whether the answer fits the prompt errs at the rates of
 * {@link VerifierNoise} (perfect unless the benchmark says otherwise).
 */
public final class CompletionVerifier implements Verifier<Completion> {

  @Override
  public Verdict verify(Completion c) {
    if (c.content() == null) {
      return Verdict.reject("missing_content", Map.of("id", c.id()));
    }
    boolean wrong = !c.expectedDigest().equals(c.answerOf());
    if (VerifierNoise.current().rejects(c.id(), wrong, true)) {
      return Verdict.reject(wrong ? "answers_another_prompt" : "judged_off_topic", Map.of("id", c.id()));
    }
    return Verdict.accept();
  }
}
