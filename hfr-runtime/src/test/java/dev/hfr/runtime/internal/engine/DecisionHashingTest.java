package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Decision events hash the arguments only for a sink that keeps them")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class DecisionHashingTest {

  /** A query argument that counts how often its content is read, i.e. how often it is hashed. */
  public static final class CountingQuery {
    private final String text;
    private final AtomicInteger reads = new AtomicInteger();

    CountingQuery(String text) {
      this.text = text;
    }

    public String getText() {
      reads.incrementAndGet();
      return text;
    }

    int reads() {
      return reads.get();
    }
  }

  @Test
  @DisplayName("a discarding sink is not called and costs no hashing: a retried read never reads its arguments")
  void discardingSinkCostsNoHashing() throws Exception {
    Fixtures f = new Fixtures();
    Hfr hfr = f.builder().decisionSink(DecisionSink.discarding()).build();
    CountingQuery query = new CountingQuery("shoes");
    ScriptedTool<String> search = new ScriptedTool<String>(query).fails(Fixtures.unavailable()).fails(Fixtures.unavailable())
        .returns("hits");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.execute(Fixtures.read("search"), search)).isEqualTo("hits");
    }

    assertThat(search.methodCalls).isEqualTo(3);
    assertThat(query.reads()).as("argument reads for hashing").isZero();
    assertThat(DecisionSink.discarding().wantsEvents()).isFalse();
  }

  @Test
  @DisplayName("a sink that keeps events gets the argument hash on every decision")
  void keepingSinkGetsHashes() throws Exception {
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    CountingQuery query = new CountingQuery("shoes");
    ScriptedTool<String> search = new ScriptedTool<String>(query).fails(Fixtures.unavailable()).returns("hits");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      hfr.execute(Fixtures.read("search"), search);
    }

    assertThat(f.sink.wantsEvents()).isTrue();
    assertThat(f.sink.actions()).containsExactly(Action.RETRY);
    assertThat(query.reads()).as("hashed once for the call, not once per decision").isEqualTo(1);
    assertThat(f.sink.events).extracting(DecisionEvent::argsHash)
        .containsOnly(IdempotencyKeys.argsHash(List.of(query)));
  }

  @Test
  @DisplayName("an escalation under a discarding sink still carries the argument hash, on the bundle and on each decision")
  void escalationEvidenceKeepsTheHash() {
    EvidenceBundle quiet = escalatedRead(false);
    EvidenceBundle logged = escalatedRead(true);

    String expected = IdempotencyKeys.argsHash(List.of(new CountingQuery("forbidden words")));
    assertThat(quiet.argsHash()).isEqualTo(expected);
    assertThat(quiet.decisions()).hasSize(2).extracting(DecisionEvent::argsHash).containsOnly(expected);
    assertThat(quiet.decisions()).extracting(DecisionEvent::action).containsExactly(Action.RETRY, Action.ESCALATE);
    assertThat(quiet).as("the same evidence whatever the sink").isEqualTo(logged);
  }

  /** A read that fails over (503, retried) and is then refused by policy (T8: escalated). */
  private static EvidenceBundle escalatedRead(boolean keepEvents) {
    Fixtures f = new Fixtures();
    Hfr hfr = keepEvents ? f.engine() : f.builder().decisionSink(DecisionSink.discarding()).build();
    ScriptedTool<String> search = new ScriptedTool<String>(new CountingQuery("forbidden words"))
        .fails(Fixtures.unavailable()).fails(Fixtures.refused());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-2").build())) {
      assertThatThrownBy(() -> hfr.execute(Fixtures.read("search"), search)).isInstanceOf(ToolCallException.class);
    }
    List<EvidenceBundle> bundles = f.escalations.drain();
    assertThat(bundles).hasSize(1);
    assertThat(f.sink.events).hasSize(keepEvents ? 2 : 0);
    return bundles.get(0);
  }
}
