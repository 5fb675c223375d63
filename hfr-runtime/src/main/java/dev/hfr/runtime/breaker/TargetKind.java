package dev.hfr.runtime.breaker;

import java.util.Locale;

/** What a breaker or bulkhead protects (paper §4.7: one per provider, model, tool and tenant). */
public enum TargetKind {
  PROVIDER,
  MODEL,
  TOOL,
  TENANT;

  /** The lower-case name, for bounded meter tags ({@code kind=tool}). */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
