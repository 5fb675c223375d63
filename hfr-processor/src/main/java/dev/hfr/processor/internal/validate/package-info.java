/**
 * The compile-time rules, one validator per rule (named after it), collecting diagnostics into a
 * {@link dev.hfr.processor.internal.validate.ValidationReport} that is printed once per class. Rules never throw
 * for bad user input; they report it on the annotation value the user has to change.
 */
package dev.hfr.processor.internal.validate;
