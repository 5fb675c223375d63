/**
 * What the processor reads from an annotated tool class: its tools, their annotation values, and the
 * mirrors of those values so diagnostics can point at the exact annotation the user must change.
 */
package dev.hfr.processor.internal.model;
