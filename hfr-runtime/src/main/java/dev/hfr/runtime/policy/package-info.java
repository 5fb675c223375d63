/**
 * Where the engine gets the effective policy of a call: {@link dev.hfr.runtime.policy.PolicySource}, which
 * {@code Hfr.builder().policies(...)} accepts, and the {@link dev.hfr.runtime.policy.CallPolicy} it
 * returns (the annotation defaults with the configuration's per-tenant and per-tool overrides applied).
 */
package dev.hfr.runtime.policy;
