package dev.hfr.junit;

import dev.hfr.junit.internal.FaultInjectingEngine;
import dev.hfr.junit.internal.FaultPlan;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.registry.ToolRegistry;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.VirtualTime;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link HfrFaults} and {@link InjectFault}. Before each test it builds an
 * {@link Hfr} on {@link VirtualTime} with an in-memory ledger and a recording decision sink, reads the
 * planned faults of the test class and method, and wraps the engine so those faults happen below it.
 * It resolves these test parameters:
 *
 * <ul>
 *   <li>{@link RecoveryEngine} — the engine to give generated proxies ({@code Foo_Recovering.create(engine, ...)}):
 *       calls run through the real engine with the faults injected;
 *   <li>{@link Hfr} — the engine itself, for {@code openTask(...)} and the task report;
 *   <li>{@link VirtualTime} — the clock every backoff advances instead of sleeping;
 *   <li>{@link InjectedFaults} — what was injected;
 *   <li>{@code List<DecisionEvent>} — every decision the engine recorded, in order.
 * </ul>
 *
 * The engine is closed after each test.
 */
public final class HfrFaultExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(HfrFaultExtension.class);

  /** Everything one test gets. */
  private record Kit(Hfr hfr, FaultInjectingEngine engine, VirtualTime time, InjectedFaults faults, List<DecisionEvent> decisions) {}

  @Override
  public void beforeEach(ExtensionContext context) {
    List<InjectFault> annotations = new ArrayList<>();
    context.getTestClass().ifPresent(c -> annotations.addAll(AnnotationSupport.findRepeatableAnnotations(c, InjectFault.class)));
    context.getTestMethod().ifPresent(m -> annotations.addAll(AnnotationSupport.findRepeatableAnnotations(m, InjectFault.class)));
    FaultPlan plan = FaultPlan.of(annotations);
    if (!plan.planned().isEmpty()) {
      plan.requireKnownTools(ToolRegistry.load().tools().stream().map(ToolDescriptor::name).toList());
    }
    VirtualTime time = new VirtualTime(1_767_225_600_000L);
    List<DecisionEvent> decisions = Collections.synchronizedList(new ArrayList<>());
    Hfr hfr = Hfr.builder()
        .clock(time)
        .sleeper(time)
        .seed(42)
        .classifier(new DefaultFailureClassifier())
        .ledger(new InMemoryLedger())
        .decisionSink(decisions::add)
        .build();
    context.getStore(NS).put(Kit.class, new Kit(hfr, new FaultInjectingEngine(hfr, plan), time, new InjectedFaults(plan), decisions));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Kit kit = context.getStore(NS).remove(Kit.class, Kit.class);
    if (kit != null) {
      kit.hfr().close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Hfr.class || type == RecoveryEngine.class || type == VirtualTime.class
        || type == InjectedFaults.class || isDecisionList(parameter.getParameter().getParameterizedType());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Kit kit = context.getStore(NS).get(Kit.class, Kit.class);
    if (kit == null) {
      throw new ParameterResolutionException("HFR test parameters are available to test methods only, not to "
          + parameter.getDeclaringExecutable());
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == Hfr.class) {
      return kit.hfr();
    }
    if (type == RecoveryEngine.class) {
      return kit.engine();
    }
    if (type == VirtualTime.class) {
      return kit.time();
    }
    if (type == InjectedFaults.class) {
      return kit.faults();
    }
    return kit.decisions();
  }

  private static boolean isDecisionList(Type type) {
    return type instanceof ParameterizedType p && p.getRawType() == List.class
        && p.getActualTypeArguments().length == 1 && p.getActualTypeArguments()[0] == DecisionEvent.class;
  }
}
