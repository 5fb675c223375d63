package dev.hfr.processor.internal.model;

import dev.hfr.annotations.Criticality;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A processed class: one with HFR annotations on it or its methods.
 *
 * @param element the class
 * @param tools its methods carrying {@code @SideEffect}, in declaration order
 * @param annotatedNonTools methods carrying other HFR annotations but no {@code @SideEffect}
 * @param criticality the class's {@code @Criticality}, or {@code null}
 * @param timeout the class's {@code @Timeout}, or {@code null}
 */
public record ToolClass(
    TypeElement element,
    List<ToolMethod> tools,
    List<ExecutableElement> annotatedNonTools,
    Criticality.Level criticality,
    TimeoutSetting timeout) {

  /** The class's simple name. */
  public String simpleName() {
    return element.getSimpleName().toString();
  }

  /** The tool declared by {@code method}, if it is one. */
  public Optional<ToolMethod> tool(ExecutableElement method) {
    return tools.stream().filter(t -> t.element().equals(method)).findFirst();
  }

  /** The effective criticality of a tool: the method's, else the class's, else {@code null} (the runtime default). */
  public Criticality.Level criticalityOf(ToolMethod tool) {
    return tool.criticality() != null ? tool.criticality() : criticality;
  }

  /** The effective {@code @Timeout} of a tool: the method's, else the class's, else {@code null} (unbounded). */
  public TimeoutSetting timeoutOf(ToolMethod tool) {
    return tool.timeout() != null ? tool.timeout() : timeout;
  }
}
