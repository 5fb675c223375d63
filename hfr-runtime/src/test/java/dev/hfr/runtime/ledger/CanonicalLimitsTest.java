package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: inputs the canonical form cannot hash are refused quickly with the path of the bad value,
 * never turned into an OutOfMemoryError; text is hashed losslessly.
 */
@DisplayName("Canonical limits: numbers, sizes, lengths and depth refused within milliseconds, naming the path")
class CanonicalLimitsTest {

  // Generous for a loaded CI machine: a refusal takes ~1 ms, the 4 Mi chars written before the total-length one ~30 ms.
  private static final Duration FAST = Duration.ofMillis(1000);

  private static CanonicalFormException refused(Object args) {
    return assertTimeoutPreemptively(FAST, () -> {
      try {
        Canonical.of(args);
      } catch (CanonicalFormException e) {
        return e;
      }
      throw new AssertionError("accepted " + args.getClass());
    });
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
    Iterable<Integer> endless = () -> new Iterator<>() {
      int i;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Integer next() {
        return i++;
      }
    };
    CanonicalFormException e = refused(List.of(Map.of("ids", endless)));
    assertThat(e.path()).isEqualTo("$[0][\"ids\"]");
    assertThat(e).hasMessageContaining("more than 100000 elements (or never ends)");
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
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      parts.add("y".repeat(Canonical.MAX_STRING_LENGTH));
    }
    assertThat(refused(parts)).hasMessageContaining("grows past 4194304 characters").extracting(CanonicalFormException::path)
        .isEqualTo("$[3]"); // four strings of 1 Mi plus their separators pass 4 Mi
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
