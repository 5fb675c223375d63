package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Properties of the canonical form over generated inputs. */
class CanonicalProperties {

  @Property(tries = 200)
  @Label("a map's form does not depend on its type or insertion order")
  void mapOrderIrrelevant(@ForAll Map<String, Integer> content, @ForAll long seed) {
    List<Map.Entry<String, Integer>> entries = new ArrayList<>(content.entrySet());
    Collections.shuffle(entries, new Random(seed));
    Map<String, Integer> linked = new LinkedHashMap<>();
    entries.forEach(e -> linked.put(e.getKey(), e.getValue()));

    assertThat(Canonical.of(linked)).isEqualTo(Canonical.of(new HashMap<>(content))).isEqualTo(Canonical.of(new TreeMap<>(content)));
  }

  @Property(tries = 200)
  @Label("a set's form does not depend on its type or iteration order")
  void setOrderIrrelevant(@ForAll List<String> elements, @ForAll long seed) {
    List<String> shuffled = new ArrayList<>(elements);
    Collections.shuffle(shuffled, new Random(seed));
    assertThat(Canonical.of(new LinkedHashSet<>(shuffled))).isEqualTo(Canonical.of(new HashSet<>(elements)));
  }

  @Property(tries = 200)
  @Label("an integer has one form whatever its type and scale")
  void integersNormalised(@ForAll int n, @ForAll @IntRange(min = 0, max = 6) int extraScale) {
    String form = Canonical.of(n);
    assertThat(Canonical.of((long) n)).isEqualTo(form);
    assertThat(Canonical.of((double) n)).isEqualTo(form);
    assertThat(Canonical.of(BigDecimal.valueOf(n).setScale(extraScale))).isEqualTo(form);
    assertThat(form).isEqualTo(Integer.toString(n));
  }

  @Property(tries = 200)
  @Label("a double and the BigDecimal of its decimal string have one form; distinct doubles have distinct forms")
  void doublesNormalised(@ForAll double a, @ForAll double b) {
    if (Double.isFinite(a)) {
      assertThat(Canonical.of(a)).isEqualTo(Canonical.of(new BigDecimal(Double.toString(a))));
    }
    if (Double.isFinite(a) && Double.isFinite(b) && a != b) {
      assertThat(Canonical.of(a)).isNotEqualTo(Canonical.of(b));
    }
  }

  @Property(tries = 200)
  @Label("different strings never collide, whatever they contain")
  void stringsInjective(@ForAll String a, @ForAll String b) {
    if (!a.equals(b)) {
      assertThat(Canonical.of(List.of(a))).isNotEqualTo(Canonical.of(List.of(b)));
      assertThat(IdempotencyKeys.argsHash(List.of(a))).isNotEqualTo(IdempotencyKeys.argsHash(List.of(b)));
    }
  }
}
