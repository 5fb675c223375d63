package dev.hfr.samples.mcp;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The issue tracker the sample's MCP server exposes, annotated for HFR. Every create commits a new issue,
 * so the server can count duplicates: two issues with one title.
 */
public class TrackerTools {

  /** An issue. */
  public record Issue(long id, String title) {}

  private final Map<String, AtomicInteger> byTitle = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicInteger closes = new AtomicInteger();

  // tag::tools[]
  @SideEffect(Risk.R0)
  public List<String> searchIssues(String query) {
    AtomicInteger n = byTitle.get(query);
    return n == null ? List.of() : java.util.Collections.nCopies(n.get(), query);
  }

  @SideEffect(value = Risk.R2, reconcile = "findIssue")
  public Issue createIssue(String title) {
    byTitle.computeIfAbsent(title, t -> new AtomicInteger()).incrementAndGet();
    return new Issue(ids.incrementAndGet(), title);
  }

  public Optional<Issue> findIssue(String title) {
    return byTitle.containsKey(title) ? Optional.of(new Issue(0, title)) : Optional.empty();
  }

  @SideEffect(Risk.R3)
  public int closeAll() {
    closes.incrementAndGet();
    return byTitle.size();
  }
  // end::tools[]

  /** Issues committed with {@code title}. */
  int created(String title) {
    AtomicInteger n = byTitle.get(title);
    return n == null ? 0 : n.get();
  }

  /** Issues beyond the first of each title. */
  long duplicates() {
    return byTitle.values().stream().mapToLong(n -> Math.max(0, n.get() - 1)).sum();
  }

  /** How often closeAll ran. */
  int closes() {
    return closes.get();
  }

  /** Forgets every issue (between the two halves of the comparison). */
  void reset() {
    byTitle.clear();
  }
}
