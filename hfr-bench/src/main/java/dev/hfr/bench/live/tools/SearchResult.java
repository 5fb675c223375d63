package dev.hfr.bench.live.tools;

import java.util.List;

/** Search results: the response id, the query the service answered, the hits (null if missing), and whether they came from the cache. */
public record SearchResult(String id, String askedQuery, String answeredQuery, List<String> hits, boolean stale) {}
