package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link Canonical} reads records and beans through accessors resolved once per class; its output must
 * be byte-for-byte what the reflective walk it replaced ({@link CanonicalReference}) gave, for every
 * value and for every refusal, or stored idempotency keys would stop matching.
 */
@DisplayName("Canonical with per-class cached readers: the same bytes as the reflective walk")
class CanonicalCachedReadersTest {

  record Line(String sku, int qty, Optional<BigDecimal> price) {}

  record Order(String customer, List<Line> lines, Map<String, Object> attributes, Set<Object> tags, long[] counts) {}

  /** A private record: its accessors are reached through {@code setAccessible}. */
  private record Hidden(String secretName, int n) {}

  record Empty() {}

  record Holder(Object value) {}

  /** A bean with getters, an {@code isX} and a {@code getX} of the same property, and an acronym getter. */
  public static class Customer {
    private final String name;
    private final boolean vip;

    Customer(String name, boolean vip) {
      this.name = name;
      this.vip = vip;
    }

    public String getName() { return name; }

    public boolean isVip() { return vip; }

    public Boolean getVip() { return vip; }

    public URLHolder getURL() { return new URLHolder(); }

    public void setName(String ignored) {}

    public static String getStatic() { return "never read"; }
  }

  /** Public fields only, one hiding a field of its superclass. */
  public static class BaseFields {
    public String code = "base";
    public int weight = 1;
  }

  public static class Fields extends BaseFields {
    public String code;
    public static int ignored = 9;

    Fields(String code) {
      this.code = code;
    }
  }

  public static final class URLHolder {
    public final String scheme = "https";
  }

  /** A bean whose getter fails: the refusal must name the same path and cause. */
  public static final class Failing {
    public String getOk() { return "ok"; }

    public String getBroken() { throw new IllegalStateException("broken on purpose"); }
  }

  public static final class NoContent {}

  enum Kind { A, B }

  @Test
  @DisplayName("records, beans, public fields and nested collections give the reference's bytes")
  void knownShapes() {
    Order order = new Order("c-1",
        List.of(new Line("A-1", 2, Optional.of(new BigDecimal("9.90"))), new Line("B\"2", 1, Optional.empty())),
        new LinkedHashMap<>(Map.of("channel", Kind.B, "when", Instant.parse("2026-11-30T01:00:00Z"))),
        new HashSet<>(List.of("x", 3, 3.5)), new long[] {4, 5});
    List<Object> values = List.of(order, new Hidden("h", 3), new Empty(), new Customer("Ann", true), new Fields("child"),
        List.of(new Customer("Bo", false), Map.of(1, new Fields("f"))), new Object[] {new Empty(), null, 'c'},
        UUID.fromString("6f1c2b0e-1111-4a4a-9b9b-0123456789ab"));
    for (Object v : values) {
      assertThat(Canonical.of(v)).as("%s", v).isEqualTo(CanonicalReference.of(v));
      assertThat(Canonical.of(v)).as("a second call, from the cache").isEqualTo(CanonicalReference.of(v));
    }
    assertThat(Canonical.of(new Customer("Ann", true)))
        .isEqualTo("{\"URL\":{\"scheme\":\"https\"},\"name\":\"Ann\",\"vip\":true}");
    assertThat(Canonical.of(new Fields("child"))).isEqualTo(CanonicalReference.of(new Fields("child")));
  }

  @Test
  @DisplayName("idempotency keys, argument and result hashes are the ones computed before the cache (pinned)")
  void keysUnchanged() {
    // Computed with the reflective Canonical this class replaced; a stored ledger key must keep matching.
    List<Object> args = List.of(new Line("A-1", 2, Optional.of(new BigDecimal("9.90"))), Map.of("b", 2, "a", List.of(1.5, "x")),
        Set.of(3, 1), 7L);
    assertThat(Canonical.of(args)).isEqualTo("[{\"price\":9.9,\"qty\":2,\"sku\":\"A-1\"},{\"a\":[1.5,\"x\"],\"b\":2},[1,3],7]");
    assertThat(IdempotencyKeys.argsHash(args)).isEqualTo("635ce1e03d4d68c3832d1bb8a70ab9c828bf66670a92c293509d77a22ae51b69");
    assertThat(IdempotencyKeys.legacyStepKey("tenant-a", "task-1", 3, "OrderTools.place", args))
        .isEqualTo("568faac4cf1a937afd099bed5f3002b9b3e6e77b472dd9a153e954191a699c61");
    assertThat(IdempotencyKeys.resultHash(new Line("B", 1, Optional.empty())))
        .isEqualTo("d430b0435c2b7df20551228005353de19e06f4304083163e0710acab46c92ec0");
  }

  @Test
  @DisplayName("refusals carry the same path and message: cycle, no content, JDK type, lambda, failing getter, too deep")
  void refusalsUnchanged() {
    List<Object> cyclic = new ArrayList<>();
    Map<String, Object> inner = new HashMap<>();
    inner.put("back", cyclic);
    cyclic.add(inner);
    Runnable lambda = () -> {};
    List<Object> deep = new ArrayList<>();
    List<Object> cursor = deep;
    for (int i = 0; i < 70; i++) {
      List<Object> next = new ArrayList<>();
      cursor.add(next);
      cursor = next;
    }
    Map<Object, Object> ambiguous = new HashMap<>();
    ambiguous.put(1, "int");
    ambiguous.put(1L, "long");
    List<Object> bad = List.of(cyclic, List.of(new NoContent()), List.of(Thread.currentThread()), List.of(lambda),
        Map.of("f", new Failing()), deep, ambiguous, List.of(new Holder(new Object())),
        new java.util.concurrent.atomic.DoubleAdder());
    for (Object v : bad) {
      Throwable ours = catchThrowable(() -> Canonical.of(v));
      Throwable reference = catchThrowable(() -> CanonicalReference.of(v));
      assertThat(reference).as("the reference refuses %s", v.getClass()).isInstanceOf(CanonicalFormException.class);
      assertThat(ours).isInstanceOf(CanonicalFormException.class).hasMessage(reference.getMessage());
      assertThat(((CanonicalFormException) ours).path()).isEqualTo(((CanonicalFormException) reference).path());
      assertThat(String.valueOf(ours.getCause())).isEqualTo(String.valueOf(reference.getCause()));
    }
  }

  @Test
  @DisplayName("threads sharing the cache see the same form")
  void concurrentReaders() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> forms = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        int n = i % 4;
        forms.add(pool.submit(() -> Canonical.of(List.of(new Hidden("h" + n, n), new Customer("c" + n, n % 2 == 0)))));
      }
      for (int i = 0; i < forms.size(); i++) {
        int n = i % 4;
        assertThat(forms.get(i).get(10, TimeUnit.SECONDS))
            .isEqualTo(CanonicalReference.of(List.of(new Hidden("h" + n, n), new Customer("c" + n, n % 2 == 0))));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Property(tries = 300)
  @Label("random trees of records, beans, fields, maps, sets, lists and arrays give the reference's bytes")
  void randomTrees(@ForAll long seed) {
    Object tree = randomValue(new Random(seed), 0);
    Throwable ourFailure = catchThrowable(() -> Canonical.of(tree));
    Throwable referenceFailure = catchThrowable(() -> CanonicalReference.of(tree));
    if (referenceFailure == null) {
      assertThat(ourFailure).isNull();
      assertThat(Canonical.of(tree)).isEqualTo(CanonicalReference.of(tree));
    } else {
      assertThat(ourFailure).isNotNull().hasMessage(referenceFailure.getMessage());
    }
  }

  private static Object randomValue(Random r, int depth) {
    int choice = r.nextInt(depth > 4 ? 8 : 16);
    switch (choice) {
      case 0: return null;
      case 1: return r.nextInt(2000) - 1000;
      case 2: return r.nextLong();
      case 3: return r.nextDouble() * 100;
      case 4: return BigDecimal.valueOf(r.nextInt(10_000), r.nextInt(4));
      case 5: return randomText(r);
      case 6: return Kind.values()[r.nextInt(2)];
      case 7: return r.nextBoolean();
      case 8: return new Line(randomText(r), r.nextInt(9), r.nextBoolean() ? Optional.empty() : Optional.of(BigDecimal.ONE));
      case 9: return new Customer(randomText(r), r.nextBoolean());
      case 10: return new Fields(randomText(r));
      case 11: return new Hidden(randomText(r), r.nextInt());
      case 12: {
        Map<Object, Object> m = new HashMap<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          m.put(r.nextBoolean() ? randomText(r) : (Object) r.nextInt(50), randomValue(r, depth + 1));
        }
        return m;
      }
      case 13: {
        Set<Object> s = r.nextBoolean() ? new HashSet<>() : new TreeSet<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          s.add(randomText(r));
        }
        return s;
      }
      case 14: {
        List<Object> l = new ArrayList<>();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
          l.add(randomValue(r, depth + 1));
        }
        return r.nextBoolean() ? l : l.toArray();
      }
      default: {
        List<Object> lines = new ArrayList<>();
        for (int i = 0; i < r.nextInt(3); i++) {
          lines.add(randomValue(r, depth + 1));
        }
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put(randomText(r), randomValue(r, depth + 1));
        return Arrays.asList(new Empty(), lines, attributes, r.nextBoolean() ? new NoContent() : new int[] {r.nextInt(), 0});
      }
    }
  }

  private static String randomText(Random r) {
    String alphabet = "ab\"\\\n\u0001é中 ";
    StringBuilder b = new StringBuilder();
    for (int i = 0, n = r.nextInt(5); i < n; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
