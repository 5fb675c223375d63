package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * While no sink wants decision events and nothing observes the calls, a read keeps its decisions as values and
 * builds their events only when an escalation needs them. These cases run each script twice, once heard (a
 * sink that keeps every event) and once unheard (a discarding sink), on the same virtual clock, and ask for the
 * same evidence, decision for decision: what was put off is built with the values it was taken with.
 */
@DisplayName("Decisions nobody hears are built only when evidence needs them, exactly as they were taken")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class UnheardDecisionsTest {

  @Test
  @DisplayName("a read outside any task, retried twice then refused by policy: the same three decisions")
  void retriedReadOutsideATask() {
    Function<Hfr, Runnable> run = hfr -> () -> hfr.execute(Fixtures.read("search"),
        new ScriptedTool<String>("shoes").fails(Fixtures.unavailable()).fails(Fixtures.timeout()).fails(Fixtures.refused()));

    EvidenceBundle heard = escalation(true, run);
    EvidenceBundle unheard = escalation(false, run);

    assertThat(heard.decisions()).extracting(DecisionEvent::action)
        .containsExactly(Action.RETRY, Action.RETRY, Action.ESCALATE);
    assertSameEvidence(unheard, heard);
  }

  @Test
  @DisplayName("a read in a task whose backoffs move the clock: each decision keeps its own time, attempt and budget")
  void retriedReadInATask() {
    Function<Hfr, Runnable> run = hfr -> () -> {
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-7").limits(TaskLimits.builder().maxRetries(5).build()).build())) {
        hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("shoes")
            .fails(Fixtures.unavailable()).fails(Fixtures.timeout()).fails(Fixtures.refused()));
      }
    };

    EvidenceBundle heard = escalation(true, run);
    EvidenceBundle unheard = escalation(false, run);

    List<DecisionEvent> decisions = heard.decisions();
    assertThat(decisions).extracting(DecisionEvent::action)
        .containsExactly(Action.RETRY, Action.RETRY, Action.ESCALATE);
    assertThat(decisions).extracting(DecisionEvent::epochMillis).doesNotHaveDuplicates();
    assertThat(decisions).extracting(DecisionEvent::taskRetriesLeft).containsExactly(4, 3, 3);
    assertSameEvidence(unheard, heard);
  }

  @Test
  @DisplayName("a model call that exhausts its retries, degrades to its backup model and is refused there: rungs kept")
  void degradedCall() {
    ToolDescriptor model = Fixtures.modelWithLadder(Criticality.Level.MEDIUM);
    Function<Hfr, Runnable> run = hfr -> () -> hfr.execute(model, new ScriptedTool<String>("prompt")
        .failsTimes(4, Fixtures.unavailable()).rungFails(0, Fixtures.refused()));

    EvidenceBundle heard = escalation(true, run);
    EvidenceBundle unheard = escalation(false, run);

    assertThat(heard.decisions()).extracting(DecisionEvent::rung).contains(DegradeLevel.L0, DegradeLevel.L2);
    assertSameEvidence(unheard, heard);
  }

  /** Equal but for the id an engine gives a call outside any task (each engine numbers its own). */
  private static void assertSameEvidence(EvidenceBundle unheard, EvidenceBundle heard) {
    assertThat(unheard).usingRecursiveComparison().ignoringFields("taskId", "decisions.taskId").isEqualTo(heard);
    assertThat(unheard.decisions()).extracting(DecisionEvent::taskId).containsOnly(unheard.taskId());
  }

  /** Runs {@code script} on a fresh engine, heard or not, and answers the one escalation it ends in. */
  private static EvidenceBundle escalation(boolean heard, Function<Hfr, Runnable> script) {
    Fixtures f = new Fixtures();
    Hfr hfr = heard ? f.engine() : f.builder().decisionSink(DecisionSink.discarding()).build();
    assertThatThrownBy(() -> script.apply(hfr).run()).isInstanceOf(ToolCallException.class);
    if (heard) {
      assertThat(f.sink.events).isNotEmpty();
    } else {
      assertThat(f.sink.events).isEmpty();
    }
    List<EvidenceBundle> bundles = f.escalations.drain();
    assertThat(bundles).hasSize(1);
    return bundles.get(0);
  }
}
