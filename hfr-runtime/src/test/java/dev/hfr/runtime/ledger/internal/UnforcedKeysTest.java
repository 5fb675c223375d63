package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("UnforcedKeys: what a key's state rests on, and nothing that is already forced")
class UnforcedKeysTest {

  private final UnforcedKeys keys = new UnforcedKeys();

  @Test
  @DisplayName("a key waits for its own last must-be-forced frame until it is forced, and never for another key's")
  void waitsForItsOwnKeyOnly() {
    keys.wrote("acme", "k1", 100);
    keys.wrote("acme", "k2", 250);
    keys.wrote("acme", "k1", 180); // a later frame of k1 replaces the earlier one

    assertThat(keys.mustForce("acme", "k1", 50)).isEqualTo(180);
    assertThat(keys.mustForce("acme", "k2", 50)).isEqualTo(250);
    assertThat(keys.mustForce("acme", "k3", 50)).as("a key nobody wrote").isZero();
    assertThat(keys.mustForce("globex", "k1", 50)).as("the same key in another tenant").isZero();
    assertThat(keys.mustForce("acme", "k1", 180)).as("forced up to its frame").isZero();
    assertThat(keys.mustForce("acme", "k2", 180)).isEqualTo(250);
  }

  @Test
  @DisplayName("forced entries are swept as they pile up: a million writes keep the table small (no cost growing with the ledger's life)")
  void staysSmall() {
    for (long end = 1; end <= 1_000_000; end++) {
      keys.wrote("acme", "k" + end, end);
      keys.mustForce("acme", "k" + end, end - 1); // everything before this write is forced
    }
    assertThat(keys.size()).isLessThanOrEqualTo(512);
  }
}
