package dev.hfr.runtime.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import java.util.Set;

/**
 * The effective policy of one tool for one tenant at one criticality: the annotation defaults with the
 * configuration's overrides applied. Resolved once per (tool, tenant, criticality) and cached.
 *
 * @param retry the retry settings (attempts per step, backoff, retryable classes)
 * @param criticality the criticality the call runs at
 * @param qualityFloor the lowest verified quality accepted
 * @param allowedAutomatic the ladder levels that may be taken without a human
 * @param verifyLevel the verification level of results
 */
public record CallPolicy(
    RetrySpec retry,
    Criticality.Level criticality,
    double qualityFloor,
    Set<DegradeLevel> allowedAutomatic,
    VerifyLevel verifyLevel) {}
