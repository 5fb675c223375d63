package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.DegradeMessages;
import dev.hfr.processor.internal.model.DegradeRung;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;

/**
 * Rule 6: every {@code @Degrade} rung names an existing method that takes the tool's arguments, returns
 * a compatible type and is of no higher risk; levels ascend strictly from L1; and no ladder cycles.
 */
public final class DegradeLadderValidator implements Validator {

  private final Mirrors mirrors;
  private final Methods methods;
  private final TargetResolver resolver;

  public DegradeLadderValidator(Mirrors mirrors, Methods methods) {
    this.mirrors = mirrors;
    this.methods = methods;
    this.resolver = new TargetResolver(methods);
  }

  /** A resolved rung: an edge of the ladder graph. */
  private record Edge(DegradeRung rung, ExecutableElement target) {}

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    Map<ExecutableElement, List<Edge>> graph = new LinkedHashMap<>();
    for (ToolMethod tool : tools.tools()) {
      List<Edge> edges = new ArrayList<>();
      DegradeLevel previous = null;
      for (DegradeRung rung : tool.rungs()) {
        checkLevel(tool, rung, previous, report);
        if (previous == null || rung.level().compareTo(previous) > 0) {
          previous = rung.level();
        }
        ExecutableElement target = checkTarget(tools, tool, rung, report);
        if (target != null) {
          edges.add(new Edge(rung, target));
        }
      }
      graph.put(tool.element(), edges);
    }
    reportCycles(graph, report);
  }

  private void checkLevel(ToolMethod tool, DegradeRung rung, DegradeLevel previous, ValidationReport report) {
    if (rung.level() == DegradeLevel.L0) {
      report.error(DegradeMessages.levelZero(tool.name(), rung.to()), tool.element(), rung.mirror(), rung.levelValue());
    } else if (previous != null && rung.level().compareTo(previous) <= 0) {
      report.error(DegradeMessages.levelNotAscending(tool.name(), rung.to(), rung.level().name(), previous.name()),
          tool.element(), rung.mirror(), rung.levelValue());
    }
  }

  /** Reports what is wrong with the rung's target; returns the target when it resolved. */
  private ExecutableElement checkTarget(ToolClass tools, ToolMethod tool, DegradeRung rung, ValidationReport report) {
    ExecutableElement source = tool.element();
    AnnotationMirror mirror = rung.mirror();
    TargetResolver.Resolution resolution = resolver.resolve(tools.element(), rung.to(), source);
    switch (resolution.status()) {
      case NOT_FOUND -> report.error(DegradeMessages.targetNotFound(tool.name(), rung.to(), tools.simpleName()),
          source, mirror, rung.toValue());
      case WRONG_PARAMETERS -> report.error(DegradeMessages.incompatibleParameters(tool.name(), rung.to(),
          Methods.parameterList(source)), source, mirror, rung.toValue());
      case AMBIGUOUS -> report.error(DegradeMessages.ambiguousTarget(tool.name(), rung.to()), source, mirror,
          rung.toValue());
      case FOUND -> {
        ExecutableElement target = resolution.method();
        String notCallable = Methods.notCallableBecause(target);
        if (notCallable != null) {
          report.error(DegradeMessages.targetNotCallable(tool.name(), rung.to(), notCallable), source, mirror,
              rung.toValue());
          return null;
        }
        if (!methods.returnsCompatible(target, source)) {
          report.error(DegradeMessages.incompatibleReturn(tool.name(), rung.to(), target.getReturnType().toString(),
              source.getReturnType().toString()), source, mirror, rung.toValue());
        }
        AnnotationMirror targetSideEffect = mirrors.find(target, HfrAnnotations.SIDE_EFFECT).orElse(null);
        if (targetSideEffect == null) {
          report.error(DegradeMessages.targetWithoutRisk(tool.name(), rung.to()), source, mirror, rung.toValue());
        } else {
          Risk targetRisk = Risk.valueOf(mirrors.enumConstant(mirrors.value(targetSideEffect, "value")));
          if (targetRisk.compareTo(tool.risk()) > 0) {
            report.error(DegradeMessages.higherRisk(tool.name(), tool.risk().name(), rung.to(), targetRisk.name()),
                source, mirror, rung.toValue());
          }
        }
        return target;
      }
    }
    return null;
  }

  /** Depth-first search; every edge back into the current path closes a cycle and is reported once. */
  private void reportCycles(Map<ExecutableElement, List<Edge>> graph, ValidationReport report) {
    Set<ExecutableElement> done = new HashSet<>();
    for (ExecutableElement start : graph.keySet()) {
      if (!done.contains(start)) {
        visit(start, graph, new ArrayDeque<>(), new HashMap<>(), done, report);
      }
    }
  }

  private void visit(ExecutableElement node, Map<ExecutableElement, List<Edge>> graph, Deque<ExecutableElement> path,
      Map<ExecutableElement, Boolean> onPath, Set<ExecutableElement> done, ValidationReport report) {
    path.addLast(node);
    onPath.put(node, true);
    for (Edge edge : graph.getOrDefault(node, List.of())) {
      ExecutableElement next = edge.target();
      if (Boolean.TRUE.equals(onPath.get(next))) {
        List<ExecutableElement> cycle = new ArrayList<>(path);
        cycle = cycle.subList(cycle.indexOf(next), cycle.size());
        String route = cycle.stream().map(m -> m.getSimpleName().toString()).collect(Collectors.joining(" -> "))
            + " -> " + next.getSimpleName();
        report.error(DegradeMessages.cycle(node.getSimpleName().toString(), route), node, edge.rung().mirror(),
            edge.rung().toValue());
      } else if (!done.contains(next) && graph.containsKey(next)) {
        visit(next, graph, path, onPath, done, report);
      }
    }
    onPath.put(node, false);
    path.removeLast();
    done.add(node);
  }
}
