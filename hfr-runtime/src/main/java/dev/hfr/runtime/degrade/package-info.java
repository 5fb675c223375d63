/**
 * The degradation ladder L0–L4 (§4.4, Table 5): which rung to take next within the levels a criticality
 * allows automatically, and the COMPRESS hook for context overflows. Quality floors are enforced after
 * verification, by the engine.
 */
package dev.hfr.runtime.degrade;
