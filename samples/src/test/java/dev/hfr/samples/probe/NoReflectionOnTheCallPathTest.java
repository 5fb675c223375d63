package dev.hfr.samples.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No reflection and no lookup by name between a caller and the tool method: the stack holds only the
 * proxy, its invocation class and the runtime, and the generated sources use no reflective API.
 */
class NoReflectionOnTheCallPathTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a call and a degraded call pass only through the proxy, its invocation and dev.hfr.runtime")
  void stackBetweenCallerAndToolHoldsOnlyProxyInvocationAndRuntime() {
    try (Hfr hfr = Hfr.builder()
        .ledger(new InMemoryLedger())
        .decisionSink(JsonLinesDecisionSink.open(dir.resolve("decisions.jsonl")))
        .build()) {
      StackProbe probe = StackProbe_Recovering.create(hfr);

      assertOnlyGeneratedAndRuntimeFrames(probe.probe(false), "probe");
      assertOnlyGeneratedAndRuntimeFrames(probe.probe(true), "fallback");
    }
  }

  @Test
  @DisplayName("the generated sources use no reflective API")
  void generatedSourcesUseNoReflection() throws IOException {
    for (String generated : List.of(
        "target/generated-sources/annotations/dev/hfr/samples/shop/ShopTools_Recovering.java",
        "target/generated-sources/annotations/dev/hfr/samples/shop/ShopTools_HfrCatalog.java",
        "target/generated-test-sources/test-annotations/dev/hfr/samples/probe/StackProbe_Recovering.java")) {
      String source = Files.readString(Path.of(generated));
      assertThat(source).as(generated)
          .doesNotContain("java.lang.reflect")
          .doesNotContain("getMethod")
          .doesNotContain("getDeclaredMethod")
          .doesNotContain(".invoke(")
          .doesNotContain("Class.forName")
          .doesNotContain("MethodHandle");
    }
  }

  /** Frames 0.. are the tool method up to this test; everything between must be generated or runtime code. */
  private static void assertOnlyGeneratedAndRuntimeFrames(List<StackWalker.StackFrame> stack, String toolMethod) {
    assertThat(stack.get(0).getClassName()).isEqualTo(StackProbe.class.getName());
    assertThat(stack.get(0).getMethodName()).isEqualTo(toolMethod);
    int caller = -1;
    for (int i = 0; i < stack.size(); i++) {
      if (stack.get(i).getClassName().equals(NoReflectionOnTheCallPathTest.class.getName())) {
        caller = i;
        break;
      }
    }
    assertThat(caller).as("the test's own frame is on the stack").isPositive();
    List<String> between = stack.subList(1, caller).stream()
        .map(f -> f.getClassName() + "." + f.getMethodName())
        .toList();
    assertThat(between).isNotEmpty().allSatisfy(frame -> assertThat(frame).matches(
        "dev\\.hfr\\.samples\\.probe\\.StackProbe_Recovering(\\$\\w+)?\\..*|dev\\.hfr\\.runtime\\..*"));
    assertThat(between).anyMatch(f -> f.startsWith("dev.hfr.samples.probe.StackProbe_Recovering$"));
  }
}
