package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.classify.HttpCallException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The exception a failed call ends in")
class StackTraceOptionTest {

  private static ToolCallException failedCall(Hfr hfr) {
    HttpCallException refused = Fixtures.refused();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(refused);
    ToolCallException e = catchThrowableOfType(() -> hfr.execute(Fixtures.read("search"), tool), ToolCallException.class);
    assertThat(e.getCause()).as("what the tool threw, with its own stack trace").isSameAs(refused);
    assertThat(refused.getStackTrace()).isNotEmpty();
    return e;
  }

  @Test
  @DisplayName("has no stack trace of its own by default: filling one in would cost more than the rest of the call")
  void noStackTraceByDefault() {
    ToolCallException e = failedCall(new Fixtures().engine());
    assertThat(e.getStackTrace()).isEmpty();
    assertThat(e.outcome().reason()).isEqualTo("policy_refusal");
  }

  @Test
  @DisplayName("records where it was thrown with stackTraces(true)")
  void stackTraceWhenAsked() {
    ToolCallException e = failedCall(new Fixtures().builder().stackTraces(true).build());
    assertThat(e.getStackTrace()).extracting(StackTraceElement::getClassName).contains(StackTraceOptionTest.class.getName());
  }
}
