package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.observation.DefaultToolCallObservationConvention;
import dev.hfr.runtime.observation.ToolCallContext;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every tool call is one Micrometer Observation: through micrometer-tracing-bridge-otel it becomes an OpenTelemetry
 * span (read here from the SDK's in-memory exporter) named and tagged after the GenAI conventions plus HFR's own
 * keys, with each decision as an event; through a meter handler, a timer with the low-cardinality keys only.
 */
class ToolCallObservationTest {

  private final Fixtures f = new Fixtures();
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
      .build();
  private final ObservationRegistry observations = ObservationRegistry.create();

  ToolCallObservationTest() {
    OtelCurrentTraceContext context = new OtelCurrentTraceContext();
    OtelTracer tracer = new OtelTracer(otel.getTracer("hfr-test"), context, event -> {});
    observations.observationConfig()
        .observationHandler(new DefaultTracingObservationHandler(tracer))
        .observationHandler(new DefaultMeterObservationHandler(f.registry));
  }

  @AfterEach
  void closeSdk() {
    otel.close();
  }

  @Test
  void aRetriedReadIsOneSpanWithEachDecisionAsAnEvent() throws Exception {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    ScriptedTool<String> search = new ScriptedTool<String>("shoes")
        .failsTimes(2, new ConnectException("Connection refused")).returns("3 results");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-1").build())) {
      assertThat(hfr.execute(Fixtures.read("search"), search)).isEqualTo("3 results");
    }

    SpanData span = onlySpan();
    assertThat(span.getName()).isEqualTo("execute_tool Search.search");
    assertThat(attribute(span, "gen_ai.operation.name")).isEqualTo("execute_tool");
    assertThat(attribute(span, "gen_ai.tool.name")).isEqualTo("Search.search");
    assertThat(attribute(span, "hfr.risk")).isEqualTo("R0");
    assertThat(attribute(span, "hfr.fault")).isEqualTo("T1");
    assertThat(attribute(span, "hfr.action")).isEqualTo("RETRY");
    assertThat(attribute(span, "hfr.rung")).isEqualTo("L0");
    assertThat(attribute(span, "hfr.ledger.state")).isEqualTo("none");
    assertThat(attribute(span, "hfr.outcome")).isEqualTo("SUCCESS");
    assertThat(attribute(span, "hfr.tenant")).isEqualTo("acme");
    assertThat(attribute(span, "hfr.task.id")).isEqualTo("task-1");
    assertThat(attribute(span, "hfr.attempts")).isEqualTo("3");
    assertThat(span.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
    assertThat(span.getEvents()).extracting(EventData::getName)
        .as("one event per decision, as many as the decision log has")
        .hasSize(f.sink.events.size())
        .satisfiesExactly(
            e -> assertThat(e).startsWith("attempt 1: T1 -> RETRY ("),
            e -> assertThat(e).startsWith("attempt 2: T1 -> RETRY ("));
  }

  @Test
  void anAsynchronousCallIsOneSpanFromTheCallToTheFuturesCompletionWithItsDecisionsAsEvents() throws Exception {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    AsyncCallsTest.ScriptedAsyncTool tool = new AsyncCallsTest.ScriptedAsyncTool()
        .failsLater(new ConnectException("Connection refused")).answersLater("3 results");

    CompletableFuture<String> call;
    long calledAt = System.currentTimeMillis();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-async").build())) {
      call = hfr.executeAsync(Fixtures.read("search"), tool);
      assertThat(spans.getFinishedSpanItems()).as("the span stays open while the call runs").isEmpty();
    }
    assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("3 results");

    SpanData span = awaitOnlySpan();
    assertThat(span.getName()).isEqualTo("execute_tool Search.search");
    assertThat(attribute(span, "hfr.task.id")).isEqualTo("task-async");
    assertThat(attribute(span, "hfr.fault")).isEqualTo("T1");
    assertThat(attribute(span, "hfr.action")).isEqualTo("RETRY");
    assertThat(attribute(span, "hfr.outcome")).isEqualTo("SUCCESS");
    assertThat(attribute(span, "hfr.attempts")).isEqualTo("2");
    assertThat(span.getEvents()).extracting(EventData::getName)
        .as("the decision taken on the thread that failed the first attempt")
        .singleElement().asString().startsWith("attempt 1: T1 -> RETRY (");
    assertThat(TimeUnit.NANOSECONDS.toMillis(span.getEndEpochNanos() - span.getStartEpochNanos()))
        .as("two attempts of about 20 ms each, on other threads").isGreaterThanOrEqualTo(30);
    assertThat(span.getStartEpochNanos() / 1_000_000L).isGreaterThanOrEqualTo(calledAt - 1);
  }

  @Test
  void anAsynchronousCallThatFailsMarksItsSpanAsError() throws Exception {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    AsyncCallsTest.ScriptedAsyncTool tool = new AsyncCallsTest.ScriptedAsyncTool().failsLater(Fixtures.timeout());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-async-2").build())) {
      assertThatThrownBy(() -> hfr.executeAsync(Fixtures.irreversible(), tool).get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(ToolCallException.class);
    }
    SpanData span = awaitOnlySpan();
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(attribute(span, "hfr.outcome")).isEqualTo("ESCALATED");
    assertThat(span.getEvents()).extracting(EventData::getName).anyMatch(n -> n.contains("ESCALATE"));
  }

  /** The one span, once the future's completion has stopped its Observation (on the completing thread). */
  private SpanData awaitOnlySpan() throws InterruptedException {
    for (int i = 0; i < 200 && spans.getFinishedSpanItems().isEmpty(); i++) {
      Thread.sleep(10);
    }
    return onlySpan();
  }

  @Test
  void aCommittedWriteCarriesItsLedgerState() {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-2").build())) {
      hfr.execute(Fixtures.idempotentWrite(), new ScriptedTool<String>(100, null).returns("paid"));
    }

    SpanData span = onlySpan();
    assertThat(attribute(span, "hfr.risk")).isEqualTo("R1");
    assertThat(attribute(span, "hfr.ledger.state")).isEqualTo("COMMITTED");
    assertThat(attribute(span, "hfr.action")).isEqualTo("none");
    assertThat(attribute(span, "hfr.fault")).isEqualTo("none");
    assertThat(span.getEvents()).isEmpty();
  }

  @Test
  void anEscalationMarksTheSpanAsError() {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-3").build())) {
      assertThatThrownBy(() -> hfr.execute(Fixtures.irreversible(), new ScriptedTool<String>("a@b.c").fails(Fixtures.timeout())))
          .isInstanceOf(ToolCallException.class);
    }

    SpanData span = onlySpan();
    assertThat(f.escalations.size()).isEqualTo(1);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(attribute(span, "hfr.outcome")).isEqualTo("ESCALATED");
    assertThat(attribute(span, "hfr.fault")).isEqualTo("T3");
    assertThat(attribute(span, "error.type")).isEqualTo("T3");
    assertThat(attribute(span, "hfr.action")).isEqualTo("ESCALATE");
    assertThat(attribute(span, "hfr.ledger.state")).as("the e-mail may or may not have gone").isEqualTo("UNKNOWN");
    assertThat(span.getEvents()).extracting(EventData::getName).contains("exception");
  }

  @Test
  void theToolSpanIsAChildOfTheSpanTheCallIsMadeIn() {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    Observation turn = Observation.start("agent.turn", observations);
    try (Observation.Scope scope = turn.openScope()) {
      hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").returns("3 results"));
    } finally {
      turn.stop();
    }

    List<SpanData> finished = spans.getFinishedSpanItems();
    SpanData parent = finished.stream().filter(s -> s.getName().equals("agent.turn")).findFirst().orElseThrow();
    SpanData tool = finished.stream().filter(s -> s.getName().equals("execute_tool Search.search")).findFirst().orElseThrow();
    assertThat(tool.getParentSpanId()).isEqualTo(parent.getSpanId());
    assertThat(tool.getTraceId()).isEqualTo(parent.getTraceId());
  }

  @Test
  void theTimerCarriesOnlyTheBoundedKeys() throws Exception {
    Hfr hfr = f.builder().observationRegistry(observations).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-4").build())) {
      hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").fails(new ConnectException("refused")).returns("ok"));
    }

    Timer timer = f.registry.find(DefaultToolCallObservationConvention.NAME).timer();
    assertThat(timer).isNotNull();
    assertThat(timer.getId().getTags()).extracting(t -> t.getKey())
        .contains("gen_ai.operation.name", "gen_ai.tool.name", "hfr.risk", "hfr.fault", "hfr.action", "hfr.rung",
            "hfr.ledger.state", "hfr.outcome")
        .doesNotContain("hfr.tenant", "hfr.task.id", "hfr.attempts");
  }

  @Test
  void anApplicationsConventionNamesTheObservation() {
    Hfr hfr = f.builder().observationRegistry(observations).observationConvention(new DefaultToolCallObservationConvention() {
      @Override
      public String getContextualName(ToolCallContext context) {
        return "tool " + context.tool().name();
      }
    }).build();
    hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").returns("ok"));
    assertThat(onlySpan().getName()).isEqualTo("tool Search.search");
  }

  @Test
  void withoutARegistryOrWithTheNoopOneTheEngineObservesNothing() {
    f.engine().execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").returns("ok"));
    f.builder().observationRegistry(ObservationRegistry.NOOP).build()
        .execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").returns("ok"));
    assertThat(spans.getFinishedSpanItems()).isEmpty();
    assertThat(f.registry.find(DefaultToolCallObservationConvention.NAME).timer()).isNull();
  }

  @Test
  void aShadowCallIsObservedAsShadow() {
    Hfr hfr = f.builder().observationRegistry(observations).mode(dev.hfr.runtime.HfrMode.SHADOW).build();
    hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("shoes").returns("ok"));
    assertThat(attribute(onlySpan(), "hfr.mode")).isEqualTo("shadow");
  }

  private SpanData onlySpan() {
    assertThat(spans.getFinishedSpanItems()).hasSize(1);
    return spans.getFinishedSpanItems().get(0);
  }

  private static String attribute(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

}
