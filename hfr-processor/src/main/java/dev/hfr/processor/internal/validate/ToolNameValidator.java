package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.HashSet;
import java.util.Set;

/** Warns when tools share a name ({@code Class.method}), which meters, decisions and the registry key on. */
public final class ToolNameValidator implements Validator {

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    Set<String> seen = new HashSet<>();
    for (ToolMethod tool : tools.tools()) {
      if (!seen.add(tool.name())) {
        report.warning(ProxyMessages.overloadedTool(tool.name()), tool.element());
      }
    }
  }
}
