package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.processor.internal.messages.DegradeMessages;
import dev.hfr.processor.internal.model.DegradeRung;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;

/**
 * Rule 7: a HIGH-criticality method (its own {@code @Criticality} or its class's) has no L3 or L4 rung,
 * which Table 5 does not allow automatically at HIGH. Warns about an L4 rung above LOW criticality,
 * which the runtime will not take without a human.
 */
public final class CriticalityDegradeValidator implements Validator {

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      Criticality.Level criticality = tools.criticalityOf(tool);
      for (DegradeRung rung : tool.rungs()) {
        if (criticality == Criticality.Level.HIGH && rung.level().compareTo(DegradeLevel.L3) >= 0) {
          report.error(DegradeMessages.highCriticality(tool.name(), rung.to(), rung.level().name()), tool.element(),
              rung.mirror(), rung.levelValue());
        } else if (rung.level() == DegradeLevel.L4 && criticality != Criticality.Level.LOW) {
          String name = criticality == null ? "MEDIUM (the default)" : criticality.name();
          report.warning(DegradeMessages.needsHuman(tool.name(), rung.to(), name), tool.element(), rung.mirror(),
              rung.levelValue());
        }
      }
    }
  }
}
