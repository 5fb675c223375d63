package dev.hfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TaskSpec: a task's tenant and id must say something")
class TaskSpecTest {

  @Test
  @DisplayName("a missing, empty or all-blank tenant or task id is refused, naming which")
  void blankRefused() {
    for (String blank : new String[] {null, "", " ", "\t\n ", "\u2003"}) {
      assertThatThrownBy(() -> TaskSpec.builder(blank, "order-42")).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("tenant must not be blank");
      assertThatThrownBy(() -> TaskSpec.builder("acme", blank)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("taskId must not be blank");
    }
  }

  @Test
  @DisplayName("any text with a non-blank character is taken as it is, blanks around it included")
  void textKept() {
    TaskSpec spec = TaskSpec.builder(" acme", "\torder-42 ").build();
    assertThat(spec.tenant()).isEqualTo(" acme");
    assertThat(spec.taskId()).isEqualTo("\torder-42 ");
    assertThat(TaskSpec.builder("a", "\uD83D\uDE00").build().taskId()).isEqualTo("\uD83D\uDE00");
  }
}
