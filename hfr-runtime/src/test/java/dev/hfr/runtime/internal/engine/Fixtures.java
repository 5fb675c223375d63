package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;

/** Engines on virtual time with in-memory parts, and the failures the real providers send. */
final class Fixtures {

  final VirtualTime time = new VirtualTime(1_700_000_000_000L);
  final InMemoryLedger ledger = new InMemoryLedger(time);
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final RecordingSink sink = new RecordingSink();
  final EscalationQueue escalations = new EscalationQueue();

  Hfr.Builder builder() {
    return Hfr.builder()
        .clock(time)
        .sleeper(time)
        .seed(42)
        .ledger(ledger)
        .meterRegistry(registry)
        .decisionSink(sink)
        .escalationHandler(escalations);
  }

  Hfr engine() {
    return builder().build();
  }

  Hfr engine(HfrFeatures features) {
    return builder().features(features).build();
  }

  static final RetrySpec FAST = RetrySpec.of(4, 100, 1000, Fault.T1, Fault.T2, Fault.T3);

  static ToolDescriptor read(String method) {
    return ToolDescriptor.builder("com.acme.Search", method, Risk.R0).parameters("query").retry(FAST)
        .resultType(String.class).build();
  }

  static ToolDescriptor.Builder readBuilder(String method) {
    return ToolDescriptor.builder("com.acme.Search", method, Risk.R0).parameters("query").retry(FAST)
        .resultType(String.class);
  }

  /** An R1 payment: {@code pay(amount, idempotencyKey)}. */
  static ToolDescriptor idempotentWrite() {
    return ToolDescriptor.builder("com.acme.Payments", "pay", Risk.R1).parameters("amount", "key")
        .idempotencyKeyParameter(1).retry(FAST).resultType(String.class).build();
  }

  /** An R2 order: {@code createOrder(sku)} with {@code findOrder(sku)}. */
  static ToolDescriptor queryableWrite() {
    return ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2).parameters("sku").reconcile("findOrder")
        .retry(FAST).resultType(String.class).build();
  }

  /** An R3 e-mail. */
  static ToolDescriptor irreversible() {
    return ToolDescriptor.builder("com.acme.Mail", "send", Risk.R3).parameters("to").resultType(String.class).build();
  }

  /** A model call with an alternative model (L2) and a template answer (L4). */
  static ToolDescriptor modelWithLadder(Criticality.Level criticality) {
    return ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("prompt").retry(FAST)
        .criticality(criticality).resultType(String.class)
        .degradeTo("completeWithBackup", DegradeLevel.L2, Risk.R0)
        .degradeTo("templateAnswer", DegradeLevel.L4, Risk.R0)
        .build();
  }

  static HttpCallException http(int status, String body) {
    return new HttpCallException(status, Map.of(), body);
  }

  static HttpCallException http(int status, String header, String value, String body) {
    return new HttpCallException(status, Map.of(header, List.of(value)), body);
  }

  static HttpCallException unavailable() {
    return http(503, "{\"error\":{\"type\":\"service_unavailable\"}}");
  }

  static HttpCallException overloaded() {
    return http(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
  }

  static HttpCallException refused() {
    return http(400, "{\"error\":{\"code\":\"content_policy_violation\",\"message\":\"blocked\"}}");
  }

  static HttpTimeoutException timeout() {
    return new HttpTimeoutException("request timed out");
  }
}
