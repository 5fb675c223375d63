package dev.hfr.bench.live.tools;

import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.util.Map;

/**
 * A V1 check of search results: the results field is there (never errs) and answers the query that was
 * asked (errs at the tool rates of {@link VerifierNoise}).
 */
public final class SearchVerifier implements Verifier<SearchResult> {

  @Override
  public Verdict verify(SearchResult r) {
    if (r.hits() == null) {
      return Verdict.reject("missing_results", Map.of("id", r.id()));
    }
    boolean wrong = !r.askedQuery().equals(r.answeredQuery());
    if (VerifierNoise.current().rejects(r.id(), wrong, false)) {
      return Verdict.reject(wrong ? "answers_another_query" : "judged_off_query", Map.of("id", r.id()));
    }
    return r.stale() ? Verdict.accept(0.7) : Verdict.accept();
  }
}
