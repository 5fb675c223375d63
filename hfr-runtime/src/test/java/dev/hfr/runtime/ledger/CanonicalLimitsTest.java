package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: inputs the canonical form cannot hash are refused quickly with the path of the bad value,
 * never turned into an OutOfMemoryError; text is hashed losslessly.
 */
@DisplayName("Canonical limits: numbers, sizes, lengths and depth refused within milliseconds, naming the path")
class CanonicalLimitsTest {

  /*
   * "Within milliseconds" is judged by the CPU time of the thread that hashes, not by the wall clock: on the CI
   * machine (2 cores, load up to 20 while others build) the total-length refusal once took 4.7 s of wall time.
   * Measured (23:28 UTC, load 6): every refusal under 15 ms of CPU, the total-length one (4 Mi chars written
   * first) 35 ms; with the JIT off (-Xint, the worst a starved compiler can give) 1.6 s and 0.26 s for the endless
   * iterable. The bound is a sanity check above that worst case; what no load changes is asserted too: how far
   * each walk got before it stopped.
   */
  private static final Duration CPU_BOUND = Duration.ofSeconds(2);
  // Only against a hang (a limit that no longer stops an endless input): wall time, as generous as a loaded CI needs.
  private static final Duration HANG = Duration.ofSeconds(60);
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private record Refusal(CanonicalFormException exception, long cpuNanos) { }

  private static CanonicalFormException refused(Object args) {
    assertThat(THREADS.isCurrentThreadCpuTimeSupported()).as("thread CPU time is measurable on this JVM").isTrue();
    Refusal r = assertTimeoutPreemptively(HANG, () -> {
      long start = THREADS.getCurrentThreadCpuTime(); // the thread that runs Canonical.of
      try {
        Canonical.of(args);
      } catch (CanonicalFormException e) {
        return new Refusal(e, THREADS.getCurrentThreadCpuTime() - start);
      }
      throw new AssertionError("accepted " + args.getClass());
    });
    assertThat(Duration.ofNanos(r.cpuNanos())).as("CPU time spent before refusing").isLessThan(CPU_BOUND);
    return r.exception();
  }

  /** An iterable over {@code elements} that counts how many of them the canonical form pulled. */
  private static final class Counted<T> implements Iterable<T> {
    private final Iterable<T> elements;
    private final AtomicInteger pulled = new AtomicInteger();

    Counted(Iterable<T> elements) {
      this.elements = elements;
    }

    @Override
    public Iterator<T> iterator() {
      Iterator<T> it = elements.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public T next() {
          pulled.incrementAndGet();
          return it.next();
        }
      };
    }

    int pulled() {
      return pulled.get();
    }
  }

  @Test
  @DisplayName("new BigDecimal(\"1e999999999\") from model-generated JSON is refused at its path, not an OutOfMemoryError")
  void hugeExponent() {
    CanonicalFormException e = refused(List.of("sku-1", Map.of("qty", new BigDecimal("1e999999999"))));
    assertThat(e.path()).isEqualTo("$[1][\"qty\"]");
    assertThat(e).hasMessageContaining("exponent beyond ±1000").hasMessageContaining("$[1][\"qty\"]");
    assertThat(refused(List.of(new BigDecimal("1e-999999999"))).path()).isEqualTo("$[0]");
  }

  @Test
  @DisplayName("more than 1,000 significant digits is refused; 1,000 digits and every double are accepted")
  void digits() {
    assertThat(refused(List.of(new BigInteger("9".repeat(1001)))).getMessage()).contains("more than 1000 significant digits");
    assertThat(refused(List.of(new BigDecimal("1." + "1".repeat(1001)))).path()).isEqualTo("$[0]");
    assertThat(Canonical.of(new BigInteger("9".repeat(1000)))).hasSize(1000);
    assertThat(Canonical.of(new BigDecimal("1e1000"))).hasSize(1001);
    assertThat(Canonical.of(Double.MAX_VALUE)).hasSize(309);
    assertThat(Canonical.of(Double.MIN_VALUE)).startsWith("0.000");
  }

  @Test
  @DisplayName("an endless Iterable is refused after 100,000 elements instead of running out of memory")
  void endlessIterable() {
    Counted<Integer> endless = new Counted<>(() -> new Iterator<>() {
      int i;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Integer next() {
        return i++;
      }
    });
    CanonicalFormException e = refused(List.of(Map.of("ids", endless)));
    assertThat(e.path()).isEqualTo("$[0][\"ids\"]");
    assertThat(e).hasMessageContaining("more than 100000 elements (or never ends)");
    assertThat(endless.pulled()).as("elements pulled before the refusal").isEqualTo(Canonical.MAX_ELEMENTS);
  }

  @Test
  @DisplayName("collections, arrays and maps beyond 100,000 elements are refused before they are walked")
  void sizes() {
    List<Integer> big = Collections.nCopies(Canonical.MAX_ELEMENTS + 1, 7);
    assertThat(refused(List.of(big)).path()).isEqualTo("$[0]");
    assertThat(refused(List.of(new long[Canonical.MAX_ELEMENTS + 1])).path()).isEqualTo("$[0]");
    assertThat(Canonical.of(Collections.nCopies(Canonical.MAX_ELEMENTS, 7))).startsWith("[7,7");
  }

  @Test
  @DisplayName("a string beyond 1 Mi chars is refused naming its path; one at the limit is accepted")
  void longString() {
    String tooLong = "x".repeat(Canonical.MAX_STRING_LENGTH + 1);
    CanonicalFormException e = refused(List.of(Map.of("body", tooLong)));
    assertThat(e.path()).isEqualTo("$[0][\"body\"]");
    assertThat(e).hasMessageContaining("1048577 characters");
    assertThat(refused(List.of(new StringBuilder(tooLong))).path()).isEqualTo("$[0]");
    assertThat(Canonical.of("x".repeat(Canonical.MAX_STRING_LENGTH))).hasSize(Canonical.MAX_STRING_LENGTH + 2);
  }

  @Test
  @DisplayName("a canonical form beyond 4 Mi chars in all is refused, however it is split")
  void totalLength() {
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      strings.add("y".repeat(Canonical.MAX_STRING_LENGTH));
    }
    Counted<String> parts = new Counted<>(strings);
    assertThat(refused(parts)).hasMessageContaining("grows past 4194304 characters").extracting(CanonicalFormException::path)
        .isEqualTo("$[3]"); // four strings of 1 Mi plus their separators pass 4 Mi
    assertThat(parts.pulled()).as("strings pulled before the refusal: the fifth is never read").isEqualTo(4);
  }

  @Test
  @DisplayName("nesting deeper than 64 levels is refused naming the path")
  void depth() {
    Object nested = "leaf";
    for (int i = 0; i < Canonical.MAX_DEPTH + 1; i++) {
      nested = List.of(nested);
    }
    assertThat(refused(nested)).hasMessageContaining("deeper than 64 levels");
  }

  @Test
  @DisplayName("lone surrogates are escaped, never replaced: argsHash(\"a\\uD800\") differs from argsHash(\"a?\")")
  void loneSurrogatesAreLossless() {
    assertThat(IdempotencyKeys.argsHash(List.of("a\uD800"))).isNotEqualTo(IdempotencyKeys.argsHash(List.of("a?")));
    assertThat(Canonical.of("a\uD800")).isEqualTo("\"a\\ud800\"");
    assertThat(Canonical.of("\uDC00b")).isEqualTo("\"\\udc00b\"");
    assertThat(Canonical.of("a\\ud800")).isEqualTo("\"a\\\\ud800\"").isNotEqualTo(Canonical.of("a\uD800"));
    assertThat(Canonical.of("\uD83D\uDE00")).isEqualTo("\"\uD83D\uDE00\""); // a well-formed pair stays as it is
    assertThat(IdempotencyKeys.resultHash("\uD800")).isNotEqualTo(IdempotencyKeys.resultHash("\uDC00"));
  }

  @Test
  @DisplayName("tenant and task ids with a lone surrogate or control character are refused by key derivation")
  void idsAreValidated() {
    assertThatThrownBy(() -> IdempotencyKeys.key("acme\uD800", "task-1", "Orders.create", List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant has a lone surrogate");
    assertThatThrownBy(() -> IdempotencyKeys.key("acme", "task\n1", "Orders.create", List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("taskId has a control character");
    assertThat(IdempotencyKeys.key("acme?", "task-1", "Orders.create", List.of(), 0)).hasSize(64);
  }
}
