package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StoredKeys: a key added is always a maybe; a key never added is a no, but for about one in a hundred")
class StoredKeysTest {

  @Test
  @DisplayName("no key added is ever reported absent, and the false maybes stay near the designed 1 %")
  void noFalseNegatives() {
    StoredKeys keys = new StoredKeys(100_000);
    for (int i = 0; i < 100_000; i++) {
      keys.add("acme", "key-" + i);
    }
    for (int i = 0; i < 100_000; i++) {
      assertThat(keys.mightContain("acme", "key-" + i)).isTrue();
    }
    int falseMaybes = 0;
    for (int i = 100_000; i < 200_000; i++) {
      if (keys.mightContain("acme", "key-" + i)) {
        falseMaybes++;
      }
    }
    assertThat(falseMaybes).as("false maybes in 100,000 keys never added").isLessThan(2_000);
    assertThat(keys.full()).isFalse();
  }

  @Test
  @DisplayName("adding a key tells whether the filter had never seen it: only then may its row be inserted without a look")
  void addTellsWhetherTheKeyIsNew() {
    StoredKeys keys = new StoredKeys(1000);
    assertThat(keys.add(KeyHash.of("acme", "k1"))).as("first time").isTrue();
    assertThat(keys.add(KeyHash.of("acme", "k1"))).as("second time").isFalse();
    assertThat(keys.add(KeyHash.of("globex", "k1"))).as("another tenant's key").isTrue();
  }

  @Test
  @DisplayName("the tenant is part of the key: one tenant's key is not another's")
  void tenantsDiffer() {
    StoredKeys keys = new StoredKeys(1000);
    keys.add("acme", "k1");
    assertThat(keys.mightContain("acme", "k1")).isTrue();
    assertThat(keys.mightContain("globex", "k1")).isFalse();
    assertThat(keys.mightContain("acmek", "1")).as("no shared boundary between tenant and key").isFalse();
  }

  @Test
  @DisplayName("past its capacity it says it is full, so housekeeping builds a larger one")
  void fullPastCapacity() {
    StoredKeys keys = new StoredKeys(1024);
    for (int i = 0; i < 1025; i++) {
      keys.add("t", "k" + i);
    }
    assertThat(keys.full()).isTrue();
  }
}
