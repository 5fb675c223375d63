package dev.hfr.runtime.budget;

import dev.hfr.runtime.internal.budget.TokenBucket;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * The per-tenant retry budget B_tenant (paper §4.3): each tenant has its own {@link TokenBucket} of
 * retries per window, so one tenant's retry storm empties only its own bucket and can never starve
 * another tenant. Thread-safe; taking a token of a known tenant is lock-free and does not allocate.
 *
 * <p>Buckets are created on a tenant's first retry and kept; tenants are expected to be a bounded set
 * (they come from configuration or authenticated identities, never from request data).
 */
public final class TenantRetryBudgets {

  private final Clock clock;
  private final int defaultRetriesPerWindow;
  private final Duration window;
  private final Map<String, Integer> overrides;
  private final ToIntFunction<String> resolver;
  private final RetryTokenSupply supply;
  private final ConcurrentHashMap<String, RetryTokens> buckets = new ConcurrentHashMap<>();

  private TenantRetryBudgets(Builder b) {
    this.clock = b.clock;
    this.defaultRetriesPerWindow = b.defaultRetriesPerWindow;
    this.window = b.window;
    this.overrides = Map.copyOf(b.overrides);
    this.resolver = b.resolver;
    this.supply = b.supply != null ? b.supply : (tenant, limit, w) -> new TokenBucket(clock, limit, w);
  }

  /** Starts a set of tenant budgets on {@code clock}: 600 retries per minute each unless changed (§5.2). */
  public static Builder builder(Clock clock) {
    return new Builder(clock);
  }

  /** Takes one retry from {@code tenant}'s bucket if one is left in the current window. */
  public boolean tryAcquire(String tenant) {
    return bucket(tenant).tryAcquire();
  }

  /** Returns a retry taken by {@link #tryAcquire} that was then not made. */
  public void refund(String tenant) {
    bucket(tenant).refund();
  }

  /** Retries {@code tenant} may still make now. */
  public int available(String tenant) {
    return bucket(tenant).available();
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

  private RetryTokens bucket(String tenant) {
    RetryTokens b = buckets.get(Objects.requireNonNull(tenant, "tenant"));
    return b != null ? b : buckets.computeIfAbsent(tenant, t -> supply.tokensFor(t, limit(t), window));
  }

  /** Builds {@link TenantRetryBudgets}; arguments are checked as they are given. */
  public static final class Builder {
    private final Clock clock;
    private int defaultRetriesPerWindow = 600;
    private Duration window = Duration.ofMinutes(1);
    private final Map<String, Integer> overrides = new HashMap<>();
    private ToIntFunction<String> resolver;
    private RetryTokenSupply supply;

    private Builder(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Retries per window of every tenant without an override (default 600, §5.2 {@code max_retries_per_tenant_per_min}). */
    public Builder retriesPerWindow(int retries) {
      this.defaultRetriesPerWindow = requireNotNegative(retries, "retriesPerWindow");
      return this;
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
