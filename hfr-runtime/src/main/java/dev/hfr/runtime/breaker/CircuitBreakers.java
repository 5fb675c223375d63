package dev.hfr.runtime.breaker;

import dev.hfr.runtime.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.random.RandomGenerator;

/**
 * One {@link CircuitBreaker} per target: provider, model, tool or tenant (paper §4.7), created on first
 * use with the default configuration or the target's override. Looking up an existing breaker is a
 * map read and does not allocate, so the engine may call {@link #forTarget} on every call.
 *
 * <p>Each breaker gets its own jitter generator, split from one seeded root: runs with the same seed
 * draw the same cooldowns, and breakers never share a non-thread-safe generator.
 */
public final class CircuitBreakers {

  private final Clock clock;
  private final CircuitBreakerConfig defaults;
  private final Map<TargetKind, Map<String, CircuitBreakerConfig>> overrides;
  private final BiFunction<TargetKind, String, CircuitBreakerConfig> resolver;
  private final EnumMap<TargetKind, ConcurrentHashMap<String, CircuitBreaker>> breakers = new EnumMap<>(TargetKind.class);
  private final SplittableRandom seeds;
  private final CircuitBreakerListener listener;

  private CircuitBreakers(Builder b) {
    this.clock = b.clock;
    this.defaults = b.defaults;
    EnumMap<TargetKind, Map<String, CircuitBreakerConfig>> copy = new EnumMap<>(TargetKind.class);
    b.overrides.forEach((kind, byName) -> copy.put(kind, Map.copyOf(byName)));
    this.overrides = copy;
    this.resolver = b.resolver;
    this.seeds = new SplittableRandom(b.seed);
    this.listener = b.listener;
    for (TargetKind kind : TargetKind.values()) {
      breakers.put(kind, new ConcurrentHashMap<>());
    }
  }

  /** Starts a breaker registry on {@code clock} with the §5.2 defaults. */
  public static Builder builder(Clock clock) {
    return new Builder(clock);
  }

  /** The breaker of {@code kind:name}, created closed on first use. */
  public CircuitBreaker forTarget(TargetKind kind, String name) {
    return forTarget(kind, name, null);
  }

  /**
   * The breaker of {@code kind:name}, created closed on first use with {@code preferred} (e.g. a tool's
   * own configured thresholds) unless this registry has an explicit override for the target;
   * {@code null} means {@link #configFor}. A breaker that exists already is returned as it is.
   */
  public CircuitBreaker forTarget(TargetKind kind, String name, CircuitBreakerConfig preferred) {
    ConcurrentHashMap<String, CircuitBreaker> byName = breakers.get(Objects.requireNonNull(kind, "kind"));
    CircuitBreaker existing = byName.get(Objects.requireNonNull(name, "name"));
    if (existing != null) {
      return existing;
    }
    boolean[] created = new boolean[1];
    CircuitBreaker breaker = byName.computeIfAbsent(name, n -> {
      created[0] = true;
      return create(kind, n, preferred);
    });
    if (created[0]) {
      listener.onCreated(breaker);
    }
    return breaker;
  }

  /** The breaker of {@code kind:name} if it was ever used, else {@code null}. */
  public CircuitBreaker find(TargetKind kind, String name) {
    return breakers.get(Objects.requireNonNull(kind, "kind")).get(Objects.requireNonNull(name, "name"));
  }

  /** Every breaker created so far (a snapshot), e.g. to register the {@code harness.circuit.state} gauges. */
  public List<CircuitBreaker> all() {
    List<CircuitBreaker> all = new ArrayList<>();
    breakers.values().forEach(byName -> all.addAll(byName.values()));
    return all;
  }

  /** The configuration a breaker of {@code kind:name} gets: its override, else the resolver's answer, else the defaults. */
  public CircuitBreakerConfig configFor(TargetKind kind, String name) {
    Map<String, CircuitBreakerConfig> byName = overrides.get(kind);
    CircuitBreakerConfig override = byName == null ? null : byName.get(name);
    if (override != null) {
      return override;
    }
    CircuitBreakerConfig resolved = resolver == null ? null : resolver.apply(kind, name);
    return resolved != null ? resolved : defaults;
  }

  private CircuitBreaker create(TargetKind kind, String name, CircuitBreakerConfig preferred) {
    RandomGenerator jitter;
    synchronized (seeds) {
      jitter = seeds.split();
    }
    Map<String, CircuitBreakerConfig> byName = overrides.get(kind);
    boolean overridden = byName != null && byName.containsKey(name);
    CircuitBreakerConfig config = preferred != null && !overridden ? preferred : configFor(kind, name);
    return new CircuitBreaker(kind, name, config, clock, jitter, listener);
  }

  /** Builds {@link CircuitBreakers}; arguments are checked as they are given. */
  public static final class Builder {
    private final Clock clock;
    private CircuitBreakerConfig defaults = CircuitBreakerConfig.defaults();
    private final Map<TargetKind, Map<String, CircuitBreakerConfig>> overrides = new EnumMap<>(TargetKind.class);
    private long seed = 0x5EEDL;
    private CircuitBreakerListener listener = CircuitBreakerListener.NONE;
    private BiFunction<TargetKind, String, CircuitBreakerConfig> resolver;

    private Builder(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The configuration of every breaker without an override. */
    public Builder defaults(CircuitBreakerConfig config) {
      this.defaults = Objects.requireNonNull(config, "config");
      return this;
    }

    /** A different configuration for one target. */
    public Builder override(TargetKind kind, String name, CircuitBreakerConfig config) {
      Objects.requireNonNull(kind, "kind");
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      overrides.computeIfAbsent(kind, k -> new HashMap<>()).put(name, Objects.requireNonNull(config, "config"));
      return this;
    }

    /**
     * Where the configuration of a target without an explicit override comes from, asked once per target
     * when its breaker is created (e.g. from per-tool configuration); {@code null} answers mean the defaults.
     */
    public Builder configs(BiFunction<TargetKind, String, CircuitBreakerConfig> resolver) {
      this.resolver = Objects.requireNonNull(resolver, "resolver");
      return this;
    }

    /** The seed of the cooldown jitter (fixed by default, so runs are reproducible). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Told when a breaker is created and whenever one changes state (gauges, decision events). */
    public Builder listener(CircuitBreakerListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public CircuitBreakers build() {
      return new CircuitBreakers(this);
    }
  }
}
