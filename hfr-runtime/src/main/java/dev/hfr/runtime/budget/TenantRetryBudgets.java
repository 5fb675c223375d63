package dev.hfr.runtime.budget;

import dev.hfr.runtime.internal.budget.RetryShare;
import dev.hfr.runtime.internal.budget.TokenBucket;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToIntFunction;

/**
 * The per-tenant retry budget B_tenant (paper §4.3), in two parts that add up, each tenant's its own so one
 * tenant's retry storm can never starve another:
 *
 * <ul>
 *   <li><b>a share of its traffic</b> ({@link Builder#ratio}, default {@value #DEFAULT_RATIO}): retries may add
 *       that many per call the tenant made in the last ten seconds ({@link RetryShare}; the engine counts every
 *       call through {@link #calls}). A busy service earns retries as fast as its calls bring faults; a dying
 *       target gets at most that share more load (twice its calls, by default), however long the storm (Finagle's
 *       and Envoy's retry budgets);
 *   <li><b>a floor</b> ({@link Builder#retriesPerWindow}, §5.2's {@code max_retries_per_tenant_per_min}, default
 *       600 a minute, i.e. 10 a second): a {@link TokenBucket} per tenant (or the fleet's, {@link Builder#supply})
 *       that lets a quiet tenant retry at all. It is drawn on only when the share has nothing left.
 * </ul>
 *
 * <p>At 100 tasks a second of four calls each and a fifth of calls failing once, about 100 retries a second are
 * wanted; the share grants 400 and the floor 10 more. An absolute budget of 600 a minute was gone in six seconds.
 *
 * <p>Across a fleet, the share is each worker's share of its own calls — summed over the workers, the same share
 * of the fleet's calls — and the floor is the fleet's one bucket per tenant.
 *
 * <p>Budgets are created on a tenant's first call or retry and kept; tenants are expected to be a bounded set
 * (they come from configuration or authenticated identities, never from request data). Thread-safe; counting a
 * call is lock-free and does not allocate; taking a retry takes the tenant's share's lock (the failure path).
 */
public final class TenantRetryBudgets {

  private final Clock clock;
  private final int defaultRetriesPerWindow;
  private final Duration window;
  private final Map<String, Integer> overrides;
  private final ToIntFunction<String> resolver;
  private final RetryTokenSupply supply;
  private final double defaultRatio;
  private final Map<String, Double> ratios;
  private final ConcurrentHashMap<String, Budget> buckets = new ConcurrentHashMap<>();

  /**
   * Retries per call a tenant may add unless configured otherwise: retries at most double its load. A target
   * failing half its answers wants 0.875 retries per call (four attempts); at 0.5 a fifth of its calls were refused
   * a retry, at 1.0 none are.
   */
  public static final double DEFAULT_RATIO = 1.0;

  /** One tenant's two parts. */
  private record Budget(RetryShare share, RetryTokens floor) {}

  private TenantRetryBudgets(Builder b) {
    this.clock = b.clock;
    this.defaultRetriesPerWindow = b.defaultRetriesPerWindow;
    this.window = b.window;
    this.overrides = Map.copyOf(b.overrides);
    this.resolver = b.resolver;
    this.supply = b.supply != null ? b.supply : (tenant, limit, w) -> new TokenBucket(clock, limit, w);
    this.defaultRatio = b.ratio;
    this.ratios = Map.copyOf(b.ratios);
  }

  /** Starts a set of tenant budgets on {@code clock}: a retry per call, and a floor of 600 a minute (§5.2), each unless changed. */
  public static Builder builder(Clock clock) {
    return new Builder(clock);
  }

  /** Takes one retry from {@code tenant}'s share of its calls, or else from its floor, if either has one now. */
  public boolean tryAcquire(String tenant) {
    Budget b = bucket(tenant);
    return b.share.tryTake() || b.floor.tryAcquire();
  }

  /** Returns a retry taken by {@link #tryAcquire} that was then not made (to the share if it gave one this second). */
  public void refund(String tenant) {
    Budget b = bucket(tenant);
    if (!b.share.giveBack()) {
      b.floor.refund();
    }
  }

  /** Retries {@code tenant} may still make now. */
  public int available(String tenant) {
    Budget b = bucket(tenant);
    return b.share.available() + b.floor.available();
  }

  /**
   * {@code tenant}'s call counter: the engine increments it once per call (never per retry), which is how the
   * share of {@link Builder#ratio} is earned.
   */
  public LongAdder calls(String tenant) {
    return bucket(tenant).share.calls();
  }

  /**
   * How long until {@code tenant} could retry again: 0 when it can now; otherwise the sooner of the share's next
   * retry at the tenant's current rate of calls and the floor's next token.
   */
  public long nanosUntilAvailable(String tenant) {
    Budget b = bucket(tenant);
    long share = b.share.nanosUntilAvailable();
    long floor = b.floor.nanosUntilAvailable();
    if (share == 0 || floor == 0) {
      return 0L;
    }
    return floor < 0 ? share : Math.min(share, floor);
  }

  /** The share of its calls {@code tenant} may add as retries. */
  public double ratio(String tenant) {
    return ratios.getOrDefault(Objects.requireNonNull(tenant, "tenant"), defaultRatio);
  }

  /** The window's retry limit of {@code tenant}: its override, else the resolver's answer, else the default. */
  public int limit(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    Integer override = overrides.get(tenant);
    if (override != null) {
      return override;
    }
    if (resolver == null) {
      return defaultRetriesPerWindow;
    }
    int resolved = resolver.applyAsInt(tenant);
    if (resolved < 0) {
      throw new IllegalStateException("the limit resolver gave tenant " + tenant + " a negative limit: " + resolved);
    }
    return resolved;
  }

  /** The tenants that have a bucket: every tenant that has retried or been asked about, for status views. */
  public java.util.Set<String> tenants() {
    return java.util.Set.copyOf(buckets.keySet());
  }

  /** The refill window. */
  public Duration window() {
    return window;
  }

  private Budget bucket(String tenant) {
    Budget b = buckets.get(Objects.requireNonNull(tenant, "tenant"));
    return b != null ? b : buckets.computeIfAbsent(tenant,
        t -> new Budget(new RetryShare(clock, ratio(t)), supply.tokensFor(t, limit(t), window)));
  }

  /** Builds {@link TenantRetryBudgets}; arguments are checked as they are given. */
  public static final class Builder {
    private final Clock clock;
    private int defaultRetriesPerWindow = 600;
    private Duration window = Duration.ofMinutes(1);
    private final Map<String, Integer> overrides = new HashMap<>();
    private ToIntFunction<String> resolver;
    private RetryTokenSupply supply;
    private double ratio = DEFAULT_RATIO;
    private final Map<String, Double> ratios = new HashMap<>();

    private Builder(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The floor: retries per window of every tenant without an override, whatever its traffic (default 600, §5.2
     * {@code max_retries_per_tenant_per_min}); on top of the share of {@link #ratio}.
     */
    public Builder retriesPerWindow(int retries) {
      this.defaultRetriesPerWindow = requireNotNegative(retries, "retriesPerWindow");
      return this;
    }

    /**
     * Retries a tenant may add per call it made in the last ten seconds (default {@value #DEFAULT_RATIO}, config
     * {@code retry.retry_ratio}); 0 leaves only the floor, the budget of old.
     */
    public Builder ratio(double retriesPerCall) {
      this.ratio = checkRatio(retriesPerCall, "ratio");
      return this;
    }

    /** A different share for one tenant. */
    public Builder ratio(String tenant, double retriesPerCall) {
      if (tenant == null || tenant.isBlank()) {
        throw new IllegalArgumentException("tenant must not be blank");
      }
      ratios.put(tenant, checkRatio(retriesPerCall, "ratio of tenant " + tenant));
      return this;
    }

    private static double checkRatio(double value, String what) {
      if (!(value >= 0 && value <= 10)) {
        throw new IllegalArgumentException(what + " must be within [0, 10] retries per call, was " + value);
      }
      return value;
    }

    /** The window the limits are counted over (default one minute). */
    public Builder window(Duration window) {
      Objects.requireNonNull(window, "window");
      if (window.isNegative() || window.isZero()) {
        throw new IllegalArgumentException("window must be positive, was " + window);
      }
      this.window = window;
      return this;
    }

    /** A different limit for one tenant. */
    public Builder tenant(String tenant, int retriesPerWindow) {
      if (tenant == null || tenant.isBlank()) {
        throw new IllegalArgumentException("tenant must not be blank");
      }
      overrides.put(tenant, requireNotNegative(retriesPerWindow, "retriesPerWindow of tenant " + tenant));
      return this;
    }

    /**
     * Where the limit of a tenant without an explicit override comes from, asked once per tenant on its
     * first retry — e.g. {@code t -> config.tenant(t).maxRetriesPerTenantPerMinute()}.
     */
    public Builder limits(ToIntFunction<String> retriesPerWindowOfTenant) {
      this.resolver = Objects.requireNonNull(retriesPerWindowOfTenant, "retriesPerWindowOfTenant");
      return this;
    }

    /**
     * Where each tenant's tokens come from (default: a {@link TokenBucket} per tenant in this JVM). A fleet
     * of workers shares one budget per tenant with {@code PostgresFleet.retryTokens()}.
     */
    public Builder supply(RetryTokenSupply supply) {
      this.supply = Objects.requireNonNull(supply, "supply");
      return this;
    }

    public TenantRetryBudgets build() {
      return new TenantRetryBudgets(this);
    }

    private static int requireNotNegative(int value, String what) {
      if (value < 0) {
        throw new IllegalArgumentException(what + " must not be negative (0 allows no retry), was " + value);
      }
      return value;
    }
  }
}
