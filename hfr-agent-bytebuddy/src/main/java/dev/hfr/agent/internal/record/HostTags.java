package dev.hfr.agent.internal.record;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps the {@code host} tag bounded: the first {@code max} distinct host names are their own value,
 * any later one is {@value #OTHER}. Only the host name is ever used — never the port, path, query or
 * user info of a URL.
 */
public final class HostTags {

  /** The value of every host past the cap. */
  public static final String OTHER = "other";
  /** The value when a request has no host. */
  public static final String UNKNOWN = "unknown";

  private final int max;
  private final Set<String> known = ConcurrentHashMap.newKeySet();
  private final AtomicInteger size = new AtomicInteger();

  public HostTags(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    this.max = max;
  }

  /** The tag value for {@code host}. */
  public String tag(String host) {
    if (host == null || host.isEmpty()) {
      return UNKNOWN;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (known.contains(h)) {
      return h;
    }
    // reserve a slot first, so concurrent first sightings cannot overshoot the cap
    if (size.incrementAndGet() > max) {
      size.decrementAndGet();
      return OTHER;
    }
    if (!known.add(h)) {
      size.decrementAndGet();
    }
    return h;
  }
}
