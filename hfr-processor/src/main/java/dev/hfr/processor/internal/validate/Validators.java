package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import java.util.List;
import javax.lang.model.util.Elements;

/** All rules, in the order of DESIGN §4, then the checks of what annotation values name. */
public final class Validators {

  private final List<Validator> validators;

  public Validators(Mirrors mirrors, Methods methods, Elements elements) {
    this.validators = List.of(
        new ExplicitRiskValidator(mirrors, methods),
        new IrreversibleRetryValidator(mirrors),
        new ReconcileRequiredValidator(mirrors, methods),
        new IdempotencyKeyValidator(mirrors),
        new RetrySettingsValidator(mirrors),
        new DegradeLadderValidator(mirrors, methods),
        new CriticalityDegradeValidator(),
        new ApprovalBypassValidator(mirrors, methods),
        new ProxyableValidator(),
        new CompensateTargetValidator(mirrors, methods),
        new VerifierValidator(mirrors, methods, elements),
        new ToolNameValidator(),
        new TimeoutValidator(mirrors),
        new AsyncTypeValidator(elements, methods));
  }

  /** Runs every rule over {@code tools}. */
  public ValidationReport validate(ToolClass tools) {
    ValidationReport report = new ValidationReport();
    for (Validator validator : validators) {
      validator.validate(tools, report);
    }
    return report;
  }
}
