package dev.hfr.processor.validate;

import dev.hfr.processor.model.ToolClass;

/** One compile-time rule. */
public interface Validator {

  /** Adds the rule's errors and warnings about {@code tools} to {@code report}. */
  void validate(ToolClass tools, ValidationReport report);
}
