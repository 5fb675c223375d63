package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.RetryMessages;
import dev.hfr.processor.internal.model.DegradeRung;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;

/**
 * Rule 2: an R3 (irreversible) method is never retried ({@code @Retry(maxAttempts > 1)}) and never
 * degraded to a different method: either could repeat a side effect that already happened.
 */
public final class IrreversibleRetryValidator implements Validator {

  private final Mirrors mirrors;

  public IrreversibleRetryValidator(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      if (tool.risk() != Risk.R3) {
        continue;
      }
      if (tool.retry() != null && tool.retry().maxAttempts() > 1) {
        report.error(RetryMessages.irreversibleRetry(tool.name()), tool.element(), tool.retry().mirror(),
            mirrors.explicit(tool.retry().mirror(), "maxAttempts"));
      }
      for (DegradeRung rung : tool.rungs()) {
        if (!rung.to().equals(tool.name())) {
          report.error(RetryMessages.irreversibleDegrade(tool.name(), rung.to()), tool.element(), rung.mirror(),
              rung.toValue());
        }
      }
    }
  }
}
