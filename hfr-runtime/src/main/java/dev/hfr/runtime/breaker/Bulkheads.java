package dev.hfr.runtime.breaker;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link Bulkhead} per target (provider, model, tool, tenant), created on first use with the default
 * size or the target's override. Looking up an existing bulkhead does not allocate.
 */
public final class Bulkheads {

  private final int defaultMaxConcurrent;
  private final int defaultReserved;
  private final Map<TargetKind, Map<String, int[]>> overrides;
  private final EnumMap<TargetKind, ConcurrentHashMap<String, Bulkhead>> bulkheads = new EnumMap<>(TargetKind.class);

  private Bulkheads(Builder b) {
    this.defaultMaxConcurrent = b.maxConcurrent;
    this.defaultReserved = b.reservedForCritical;
    EnumMap<TargetKind, Map<String, int[]>> copy = new EnumMap<>(TargetKind.class);
    b.overrides.forEach((kind, byName) -> copy.put(kind, Map.copyOf(byName)));
    this.overrides = copy;
    for (TargetKind kind : TargetKind.values()) {
      bulkheads.put(kind, new ConcurrentHashMap<>());
    }
  }

  /** Starts a registry: 64 concurrent calls per target, none reserved, unless changed. */
  public static Builder builder() {
    return new Builder();
  }

  /** The bulkhead of {@code kind:name}, created on first use. */
  public Bulkhead forTarget(TargetKind kind, String name) {
    ConcurrentHashMap<String, Bulkhead> byName = bulkheads.get(Objects.requireNonNull(kind, "kind"));
    Bulkhead existing = byName.get(Objects.requireNonNull(name, "name"));
    return existing != null ? existing : byName.computeIfAbsent(name, n -> create(kind, n));
  }

  /** Every bulkhead created so far (a snapshot). */
  public List<Bulkhead> all() {
    List<Bulkhead> all = new ArrayList<>();
    bulkheads.values().forEach(byName -> all.addAll(byName.values()));
    return all;
  }

  private Bulkhead create(TargetKind kind, String name) {
    Map<String, int[]> byName = overrides.get(kind);
    int[] size = byName == null ? null : byName.get(name);
    return size != null
        ? new Bulkhead(kind, name, size[0], size[1])
        : new Bulkhead(kind, name, defaultMaxConcurrent, defaultReserved);
  }

  /** Builds {@link Bulkheads}; sizes are checked as they are given. */
  public static final class Builder {
    private int maxConcurrent = 64;
    private int reservedForCritical = 0;
    private final Map<TargetKind, Map<String, int[]>> overrides = new EnumMap<>(TargetKind.class);

    private Builder() {}

    /** The size of every bulkhead without an override, and how many of its permits only critical calls get. */
    public Builder defaults(int maxConcurrent, int reservedForCritical) {
      check(maxConcurrent, reservedForCritical, "defaults");
      this.maxConcurrent = maxConcurrent;
      this.reservedForCritical = reservedForCritical;
      return this;
    }

    /** A different size for one target. */
    public Builder override(TargetKind kind, String name, int maxConcurrent, int reservedForCritical) {
      Objects.requireNonNull(kind, "kind");
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      check(maxConcurrent, reservedForCritical, kind.tag() + ":" + name);
      overrides.computeIfAbsent(kind, k -> new HashMap<>()).put(name, new int[] {maxConcurrent, reservedForCritical});
      return this;
    }

    public Bulkheads build() {
      return new Bulkheads(this);
    }

    private static void check(int maxConcurrent, int reserved, String what) {
      if (maxConcurrent < 1) {
        throw new IllegalArgumentException("maxConcurrent of " + what + " must be at least 1, was " + maxConcurrent);
      }
      if (reserved < 0 || reserved >= maxConcurrent) {
        throw new IllegalArgumentException("reservedForCritical of " + what + " must be within [0, " + (maxConcurrent - 1) + "], was " + reserved);
      }
    }
  }
}
