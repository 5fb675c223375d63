package dev.hfr.agent.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HostTagsTest {

  @Test
  @DisplayName("the first hosts keep their name, lower-cased; later ones are 'other'")
  void capsDistinctHosts() {
    HostTags tags = new HostTags(2);
    assertThat(tags.tag("API.example.com")).isEqualTo("api.example.com");
    assertThat(tags.tag("db.internal")).isEqualTo("db.internal");
    assertThat(tags.tag("third.example.com")).isEqualTo(HostTags.OTHER);
    assertThat(tags.tag("api.example.com")).isEqualTo("api.example.com");
    assertThat(tags.tag(null)).isEqualTo(HostTags.UNKNOWN);
    assertThat(tags.tag("")).isEqualTo(HostTags.UNKNOWN);
  }

  @Test
  @DisplayName("concurrent first sightings never exceed the cap")
  void capHoldsUnderConcurrency() {
    HostTags tags = new HostTags(10);
    Set<String> seen = ConcurrentHashMap.newKeySet();
    IntStream.range(0, 2000).parallel().forEach(i -> seen.add(tags.tag("host-" + (i % 100))));
    seen.remove(HostTags.OTHER);
    assertThat(seen).hasSize(10);
    List<String> again = IntStream.range(0, 100).mapToObj(i -> tags.tag("host-" + i)).filter(t -> !t.equals(HostTags.OTHER)).toList();
    assertThat(again).containsExactlyInAnyOrderElementsOf(seen);
  }
}
