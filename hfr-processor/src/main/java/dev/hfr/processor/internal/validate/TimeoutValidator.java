package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.TimeoutMessages;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.TimeoutSetting;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;

/**
 * {@code @Timeout(ms)} is positive; and a timeout on an R3 method that has no reconcile method is a
 * warning: a timed-out attempt of it can only be abandoned with an unknown outcome and escalated.
 */
public final class TimeoutValidator implements Validator {

  private final Mirrors mirrors;

  public TimeoutValidator(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    TimeoutSetting classTimeout = tools.timeout();
    if (classTimeout != null && classTimeout.ms() < 1) {
      report.error(TimeoutMessages.notPositive(tools.simpleName(), classTimeout.ms()), tools.element(),
          classTimeout.mirror(), mirrors.explicit(classTimeout.mirror(), "ms"));
    }
    for (ToolMethod tool : tools.tools()) {
      TimeoutSetting own = tool.timeout();
      if (own != null && own.ms() < 1) {
        report.error(TimeoutMessages.notPositive(tool.name(), own.ms()), tool.element(), own.mirror(),
            mirrors.explicit(own.mirror(), "ms"));
        continue;
      }
      TimeoutSetting effective = tools.timeoutOf(tool);
      if (effective == null || effective.ms() < 1 || tool.risk() != Risk.R3 || tool.reconcile() != null) {
        continue;
      }
      String message = TimeoutMessages.irreversibleWithoutReconcile(tool.name(), effective.ms());
      if (own != null) {
        report.warning(message, tool.element(), own.mirror());
      } else {
        report.warning(message, tool.element());
      }
    }
  }
}
