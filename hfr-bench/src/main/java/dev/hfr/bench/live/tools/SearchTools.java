package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Verify;
import dev.hfr.annotations.VerifyLevel;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The read-only search service, degrading to its cache (a deterministic fallback, L4). */
@Criticality(Criticality.Level.LOW)
public class SearchTools {

  private final ToolHttp http;
  private final URI base;

  public SearchTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 4, baseDelayMs = 50, maxDelayMs = 500, on = {Fault.T1, Fault.T2, Fault.T3})
  @Verify(level = VerifyLevel.V1, by = SearchVerifier.class)
  @Degrade(to = "searchCache", level = DegradeLevel.L4)
  public SearchResult search(int task, String query) {
    return get("/search", task, query);
  }

  @SideEffect(Risk.R0)
  @Verify(level = VerifyLevel.V1, by = SearchVerifier.class)
  public SearchResult searchCache(int task, String query) {
    return get("/cache", task, query);
  }

  private SearchResult get(String path, int task, String query) {
    JsonNode r = http.getOrNull(base.resolve(path + "?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8)), task);
    if (r == null) {
      throw new IllegalStateException("search answered 404 for " + path);
    }
    List<String> hits = null;
    if (r.has("results")) {
      hits = new ArrayList<>();
      for (JsonNode h : r.get("results")) {
        hits.add(h.asText());
      }
    }
    return new SearchResult(r.path("id").asText(), query, r.path("query").asText(), hits, r.path("stale").asBoolean());
  }
}
