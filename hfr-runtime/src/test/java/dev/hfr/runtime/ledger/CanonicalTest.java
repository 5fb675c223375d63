package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Canonical: one form per content")
class CanonicalTest {

  record Line(String sku, int qty) {}

  record Order(String customer, List<Line> lines, BigDecimal total) {}

  /** A JavaBean with the same content as {@link Order}. */
  public static final class OrderBean {
    private final String customer;
    private final List<Object> lines;
    private final double total;

    OrderBean(String customer, List<Object> lines, double total) {
      this.customer = customer;
      this.lines = lines;
      this.total = total;
    }

    public String getCustomer() { return customer; }

    public List<Object> getLines() { return lines; }

    public double getTotal() { return total; }
  }

  /** Public fields only. */
  public static final class LineFields {
    public String sku;
    public long qty;
    public static String ignoredStatic = "x";

    LineFields(String sku, long qty) {
      this.sku = sku;
      this.qty = qty;
    }
  }

  enum Color { RED }

  @Test
  @DisplayName("1, 1L, 1.0, 1.0f, BigInteger.ONE and BigDecimal(\"1.00\") are the same number")
  void numbersAreNormalised() {
    List<Object> ones = List.of((byte) 1, (short) 1, 1, 1L, 1.0, 1.0f, BigInteger.ONE, new BigDecimal("1.00"), new BigDecimal("0.1E1"));
    for (Object one : ones) {
      assertThat(Canonical.of(one)).as("%s (%s)", one, one.getClass().getSimpleName()).isEqualTo("1");
    }
    assertThat(Canonical.of(0.1f)).isEqualTo("0.1");
    assertThat(Canonical.of(-0.0)).isEqualTo("0");
    assertThat(Canonical.of(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(Canonical.of(12.50)).isEqualTo("12.5");
    assertThat(Canonical.of(Double.NaN)).isEqualTo("NaN");
    assertThat(Canonical.of(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(Canonical.of(1)).isNotEqualTo(Canonical.of("1"));
  }

  @Test
  @DisplayName("a record, a map and a POJO with the same content give the same form")
  void recordMapAndPojoAgree() {
    Order record = new Order("c-7", List.of(new Line("A-1", 2), new Line("B-2", 1)), new BigDecimal("19.90"));
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("total", 19.9);
    map.put("lines", List.of(Map.of("qty", 2L, "sku", "A-1"), new LineFields("B-2", 1)));
    map.put("customer", "c-7");
    OrderBean bean = new OrderBean("c-7", List.of(new LineFields("A-1", 2), Map.of("sku", "B-2", "qty", 1)), 19.9);

    String expected = "{\"customer\":\"c-7\",\"lines\":[{\"qty\":2,\"sku\":\"A-1\"},{\"qty\":1,\"sku\":\"B-2\"}],\"total\":19.9}";
    assertThat(Canonical.of(record)).isEqualTo(expected);
    assertThat(Canonical.of(map)).isEqualTo(expected);
    assertThat(Canonical.of(bean)).isEqualTo(expected);
  }

  @Test
  @DisplayName("map keys are sorted and sets are ordered by content, whatever the iteration order")
  void stableOrder() {
    Map<String, Integer> a = new HashMap<>();
    Map<String, Integer> b = new TreeMap<>(java.util.Comparator.reverseOrder());
    for (int i = 0; i < 50; i++) {
      a.put("k" + i, i);
      b.put("k" + i, i);
    }
    assertThat(Canonical.of(a)).isEqualTo(Canonical.of(b));

    Set<Object> s1 = new LinkedHashSet<>(List.of("b", 2, "a"));
    Set<Object> s2 = new HashSet<>(List.of("a", 2L, "b"));
    assertThat(Canonical.of(s1)).isEqualTo(Canonical.of(s2)).isEqualTo("[\"a\",\"b\",2]");
    assertThat(Canonical.of(new TreeSet<>(List.of(3, 1, 2)))).isEqualTo("[1,2,3]");
    assertThat(Canonical.of(List.of(2, 1))).as("lists keep their order").isEqualTo("[2,1]");
  }

  @Test
  @DisplayName("arrays of objects and of primitives read like lists")
  void arrays() {
    assertThat(Canonical.of(new int[] {1, 2})).isEqualTo("[1,2]");
    assertThat(Canonical.of(new long[] {1, 2})).isEqualTo(Canonical.of(List.of(1, 2)));
    assertThat(Canonical.of(new String[] {"a", null})).isEqualTo("[\"a\",null]");
    assertThat(Canonical.of(new double[][] {{1.0}, {2.5}})).isEqualTo("[[1],[2.5]]");
  }

  @Test
  @DisplayName("null, Optional, enums, text and identifiers")
  void scalars() {
    assertThat(Canonical.of(null)).isEqualTo("null");
    assertThat(Canonical.of(Optional.empty())).isEqualTo("null");
    assertThat(Canonical.of(OptionalInt.of(3))).isEqualTo("3");
    assertThat(Canonical.of(Optional.of(new BigDecimal("2.0")))).isEqualTo("2");
    assertThat(Canonical.of(Color.RED)).isEqualTo("\"RED\"");
    assertThat(Canonical.of('x')).isEqualTo("\"x\"");
    assertThat(Canonical.of(new StringBuilder("x"))).isEqualTo("\"x\"");
    assertThat(Canonical.of("a\"b\\c\n\u0001")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\"");
    UUID id = UUID.fromString("6f1c2b0e-1111-4a4a-9b9b-0123456789ab");
    assertThat(Canonical.of(id)).isEqualTo("\"6f1c2b0e-1111-4a4a-9b9b-0123456789ab\"");
    assertThat(Canonical.of(true)).isEqualTo("true");
  }

  @Test
  @DisplayName("the same instant in different zones and types is the same argument; local dates keep ISO form")
  void temporal() {
    Instant i = Instant.parse("2026-11-29T22:50:00Z");
    String form = "\"2026-11-29T22:50:00Z\"";
    assertThat(Canonical.of(i)).isEqualTo(form);
    assertThat(Canonical.of(OffsetDateTime.of(2026, 11, 30, 0, 50, 0, 0, ZoneOffset.ofHours(2)))).isEqualTo(form);
    assertThat(Canonical.of(ZonedDateTime.ofInstant(i, ZoneId.of("Asia/Shanghai")))).isEqualTo(form);
    assertThat(Canonical.of(Date.from(i))).isEqualTo(form);
    assertThat(Canonical.of(LocalDate.of(2026, 11, 29))).isEqualTo("\"2026-11-29\"");
  }

  @Test
  @DisplayName("a cycle is refused with the path of the value that refers back")
  void cyclesRefused() {
    List<Object> list = new ArrayList<>();
    Map<String, Object> inner = new HashMap<>();
    inner.put("back", list);
    list.add(inner);

    assertThatThrownBy(() -> Canonical.of(list))
        .isInstanceOf(CanonicalFormException.class)
        .hasMessageContaining("cycle")
        .hasMessageContaining("$[0][\"back\"]")
        .satisfies(e -> assertThat(((CanonicalFormException) e).path()).isEqualTo("$[0][\"back\"]"));
  }

  @Test
  @DisplayName("a shared (not cyclic) value is fine")
  void sharedValueIsNotACycle() {
    List<Integer> shared = List.of(1);
    assertThat(Canonical.of(Arrays.asList(shared, shared))).isEqualTo("[[1],[1]]");
  }

  @Test
  @DisplayName("values without readable content and ambiguous map keys are refused with a clear error")
  void unreadableValuesRefused() {
    Runnable lambda = () -> {};
    assertThatThrownBy(() -> Canonical.of(List.of(lambda)))
        .isInstanceOf(CanonicalFormException.class).hasMessageContaining("$[0]").hasMessageContaining("no canonical form");
    assertThatThrownBy(() -> Canonical.of(new Object()))
        .isInstanceOf(CanonicalFormException.class).hasMessageContaining("java.lang.Object");
    assertThatThrownBy(() -> Canonical.of(Thread.currentThread()))
        .isInstanceOf(CanonicalFormException.class);
    Map<Object, String> ambiguous = new HashMap<>();
    ambiguous.put(1, "int");
    ambiguous.put(1L, "long");
    assertThatThrownBy(() -> Canonical.of(ambiguous))
        .isInstanceOf(CanonicalFormException.class).hasMessageContaining("same canonical form");
  }
}
