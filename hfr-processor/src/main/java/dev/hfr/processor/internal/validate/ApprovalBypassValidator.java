package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.RiskMessages;
import dev.hfr.processor.internal.model.DegradeRung;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.Optional;

/**
 * Rule 8: a method that requires approval is not a degradation target of a method that does not; the
 * proxy calls a rung directly, so the rung would run without the approval. Warns about approval on
 * read-only methods.
 */
public final class ApprovalBypassValidator implements Validator {

  private final Mirrors mirrors;
  private final TargetResolver resolver;

  public ApprovalBypassValidator(Mirrors mirrors, Methods methods) {
    this.mirrors = mirrors;
    this.resolver = new TargetResolver(methods);
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      if (tool.requiresApproval() && tool.risk() == Risk.R0) {
        report.warning(RiskMessages.approvalOnRead(tool.name()), tool.element(), tool.sideEffect(),
            mirrors.explicit(tool.sideEffect(), "requiresApproval"));
      }
      if (tool.requiresApproval()) {
        continue;
      }
      for (DegradeRung rung : tool.rungs()) {
        TargetResolver.Resolution resolution = resolver.resolve(tools.element(), rung.to(), tool.element());
        if (resolution.status() != TargetResolver.Status.FOUND) {
          continue; // the ladder rule reports it
        }
        Optional<ToolMethod> target = tools.tool(resolution.method());
        if (target.isPresent() && target.get().requiresApproval()) {
          report.error(RiskMessages.approvalBypass(tool.name(), rung.to()), tool.element(), rung.mirror(),
              rung.toValue());
        }
      }
    }
  }
}
