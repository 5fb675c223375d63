package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.IdempotencyMessages;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import javax.lang.model.element.VariableElement;

/**
 * Rule 4: an R1 method is {@code @Idempotent}, and an {@code @Idempotent} method has exactly one
 * {@code @IdempotencyKey String} parameter. Warns about {@code @Idempotent} on R0 (pointless) and on
 * R2/R3 (probably meant R1), and about a key on a method that is not {@code @Idempotent}. A missing key is an
 * error only on R1: elsewhere the fix is to remove {@code @Idempotent} (or declare R1), which the warning says.
 */
public final class IdempotencyKeyValidator implements Validator {

  private final Mirrors mirrors;

  public IdempotencyKeyValidator(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      if (tool.idempotent() == null) {
        if (tool.risk() == Risk.R1) {
          report.error(IdempotencyMessages.r1WithoutIdempotent(tool.name()), tool.element(), tool.sideEffect(),
              mirrors.explicit(tool.sideEffect(), "value"));
        }
        for (VariableElement key : tool.keyParameters()) {
          report.warning(IdempotencyMessages.keyWithoutIdempotent(tool.name()), key,
              mirrors.find(key, HfrAnnotations.IDEMPOTENCY_KEY).orElseThrow());
        }
        continue;
      }
      if (tool.risk() == Risk.R0) {
        report.warning(IdempotencyMessages.idempotentRead(tool.name()), tool.element(), tool.idempotent());
      } else if (tool.risk() == Risk.R2 || tool.risk() == Risk.R3) {
        report.warning(IdempotencyMessages.idempotentWrite(tool.name(), tool.risk().name()), tool.element(),
            tool.idempotent());
      }
      if (tool.keyParameters().isEmpty()) {
        if (tool.risk() != Risk.R1) {
          continue; // the warning above says what to change; asking for a key would point the wrong way
        }
        report.error(IdempotencyMessages.noKey(tool.name()), tool.element(), tool.idempotent());
      } else if (tool.keyParameters().size() > 1) {
        report.error(IdempotencyMessages.severalKeys(tool.name(), tool.keyParameters().size()), tool.element(),
            tool.idempotent());
      } else {
        VariableElement key = tool.keyParameters().get(0);
        if (!key.asType().toString().equals("java.lang.String")) {
          report.error(IdempotencyMessages.keyNotString(tool.name(), key.getSimpleName().toString(),
              key.asType().toString()), key, mirrors.find(key, HfrAnnotations.IDEMPOTENCY_KEY).orElseThrow());
        }
      }
    }
  }
}
