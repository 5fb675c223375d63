/** The approval gate for {@code requiresApproval} tools; a denial is a T8 policy refusal. */
package dev.hfr.runtime.approval;
