package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.model.ToolClass;

/** One compile-time rule. */
public interface Validator {

  /** Adds the rule's errors and warnings about {@code tools} to {@code report}. */
  void validate(ToolClass tools, ValidationReport report);
}
