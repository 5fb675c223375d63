package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.RetryMessages;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.RetrySettings;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.List;
import javax.lang.model.element.AnnotationValue;

/**
 * Rule 5: {@code @Retry} never lists T7 or T8, allows at least one attempt, has no negative delay and a
 * base delay no larger than the cap. Warns about settings that retry nothing or storm.
 */
public final class RetrySettingsValidator implements Validator {

  private final Mirrors mirrors;

  public RetrySettingsValidator(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      RetrySettings retry = tool.retry();
      if (retry == null) {
        continue;
      }
      String name = tool.name();
      AnnotationValue onValue = mirrors.explicit(retry.mirror(), "on");
      if (onValue != null) {
        List<? extends AnnotationValue> faults = mirrors.array(onValue);
        for (int i = 0; i < faults.size(); i++) {
          Fault fault = retry.on().get(i);
          if (fault == Fault.T7 || fault == Fault.T8) {
            report.error(RetryMessages.neverRetriedFault(name, fault), tool.element(), retry.mirror(), faults.get(i));
          }
        }
        if (faults.isEmpty() && retry.maxAttempts() > 1) {
          report.warning(RetryMessages.retryOnNothing(name), tool.element(), retry.mirror(), onValue);
        }
      }
      AnnotationValue attemptsValue = mirrors.explicit(retry.mirror(), "maxAttempts");
      if (retry.maxAttempts() < 1) {
        report.error(RetryMessages.maxAttemptsBelowOne(name, retry.maxAttempts()), tool.element(), retry.mirror(),
            attemptsValue);
      } else if (retry.maxAttempts() == 1) {
        if (tool.risk() == Risk.R3) {
          report.warning(RetryMessages.retryRedundant(name), tool.element(), retry.mirror());
        } else {
          report.warning(RetryMessages.retryDisabled(name, tool.risk().name()), tool.element(), retry.mirror(),
              attemptsValue);
        }
      } else if (retry.maxAttempts() > RetryMessages.STORM_THRESHOLD && tool.risk() != Risk.R3) {
        report.warning(RetryMessages.retryStorm(name, retry.maxAttempts()), tool.element(), retry.mirror(),
            attemptsValue);
      }
      boolean negative = false;
      if (retry.baseDelayMs() < 0) {
        negative = true;
        report.error(RetryMessages.negativeDelay(name, "baseDelayMs", retry.baseDelayMs()), tool.element(),
            retry.mirror(), mirrors.explicit(retry.mirror(), "baseDelayMs"));
      }
      if (retry.maxDelayMs() < 0) {
        negative = true;
        report.error(RetryMessages.negativeDelay(name, "maxDelayMs", retry.maxDelayMs()), tool.element(),
            retry.mirror(), mirrors.explicit(retry.mirror(), "maxDelayMs"));
      }
      if (!negative && retry.baseDelayMs() > retry.maxDelayMs()) {
        AnnotationValue base = mirrors.explicit(retry.mirror(), "baseDelayMs");
        report.error(RetryMessages.baseAboveMax(name, retry.baseDelayMs(), retry.maxDelayMs()), tool.element(),
            retry.mirror(), base != null ? base : mirrors.explicit(retry.mirror(), "maxDelayMs"));
      }
    }
  }
}
