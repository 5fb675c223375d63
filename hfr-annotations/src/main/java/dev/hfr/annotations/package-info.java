/**
 * The HFR annotation contract. Annotate the methods of a tool class; the HFR processor validates the
 * combination at compile time and generates {@code <Class>_Recovering}, a subclass whose methods run
 * through the HFR runtime.
 */
package dev.hfr.annotations;
