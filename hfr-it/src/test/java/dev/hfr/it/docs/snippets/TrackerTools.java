package dev.hfr.it.docs.snippets;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.Optional;

/** The annotated tools docs/MCP.md serves as an MCP server (a stand-in tracker: the page shows the wiring). */
public class TrackerTools {

  /** Creates an issue: a write that can be looked up by its title. */
  @SideEffect(value = Risk.R2, reconcile = "findIssue")
  public String createIssue(String title) {
    return "ISSUE-1 " + title;
  }

  /** The issue created with this title, if any. */
  public Optional<String> findIssue(String title) {
    return Optional.empty();
  }
}
