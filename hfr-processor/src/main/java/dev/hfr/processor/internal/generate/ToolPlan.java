package dev.hfr.processor.internal.generate;

import dev.hfr.processor.internal.model.ToolMethod;
import java.util.List;
import javax.lang.model.element.ExecutableElement;

/**
 * What the generators need about one validated tool: its names in the proxy and the methods its
 * annotations name, already resolved.
 *
 * @param tool the tool
 * @param constant the name of its descriptor constant ({@code CREATE_ORDER})
 * @param invocationClass the simple name of its invocation class ({@code CreateOrderInvocation})
 * @param reconcile the reconcile method, or {@code null}
 * @param compensate the compensate method, or {@code null}
 * @param rungTargets the degradation targets, in ladder order
 */
record ToolPlan(
    ToolMethod tool,
    String constant,
    String invocationClass,
    ExecutableElement reconcile,
    ExecutableElement compensate,
    List<ExecutableElement> rungTargets) {}
