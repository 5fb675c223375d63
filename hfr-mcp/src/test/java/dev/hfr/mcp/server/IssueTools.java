package dev.hfr.mcp.server;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** An annotated tool class the tests expose as an MCP server. */
public class IssueTools {

  /** An issue of the tracker. */
  public record Issue(long id, String title) {}

  private final Map<String, Issue> issues = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger creates = new AtomicInteger();
  final List<String> labelKeys = new CopyOnWriteArrayList<>();
  private final AtomicInteger closes = new AtomicInteger();

  @SideEffect(Risk.R0)
  public List<String> searchIssues(String query, Optional<Integer> limit) {
    List<String> out = new ArrayList<>();
    issues.keySet().stream().filter(t -> t.contains(query)).sorted().limit(limit.orElse(10)).forEach(out::add);
    return out;
  }

  @SideEffect(value = Risk.R2, reconcile = "findIssue")
  public Issue createIssue(String title) {
    creates.incrementAndGet();
    return issues.computeIfAbsent(title, t -> new Issue(ids.incrementAndGet(), t));
  }

  public Optional<Issue> findIssue(String title) {
    return Optional.ofNullable(issues.get(title));
  }

  @SideEffect(Risk.R1)
  @Idempotent
  public String labelIssue(String title, String label, @IdempotencyKey String key) {
    labelKeys.add(key);
    return title + ":" + label;
  }

  @SideEffect(Risk.R3)
  public int closeAll() {
    closes.incrementAndGet();
    if (issues.containsKey("refuse")) {
      throw new IllegalStateException("tracker refused");
    }
    int n = issues.size();
    issues.clear();
    return n;
  }

  int creates() {
    return creates.get();
  }

  int closes() {
    return closes.get();
  }
}
