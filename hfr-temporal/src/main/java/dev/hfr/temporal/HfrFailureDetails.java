package dev.hfr.temporal;

import java.util.List;

/**
 * What HFR decided, carried as the details of the {@code ApplicationFailure} an activity fails with when HFR
 * ended one of its tool calls without an accepted result. A workflow reads it with {@code
 * applicationFailure.getDetails().get(HfrFailureDetails.class)}.
 *
 * @param tool the tool's name
 * @param status how HFR ended the call ({@code FAILED} or {@code ESCALATED})
 * @param fault the F2D-9 class of the last failure ({@code T1} .. {@code T8}, {@code V1}, {@code UNCLASSIFIED}),
 *     or {@code null} when there was none
 * @param reason HFR's machine-readable reason ({@code write_outcome_unknown}, {@code reconcile_unknown},
 *     {@code policy_refusal}, ...)
 * @param sideEffect whether the call may have changed the outside world
 * @param ledgerKey the idempotency key of the write's ledger record, or {@code null} for a read
 * @param artifactRefs everything the outcome refers to (ledger key, result hash)
 * @param attempts physical attempts HFR made in this activity attempt
 * @param evidence the exception HFR ended the call with and its cause, as text
 */
public record HfrFailureDetails(
    String tool,
    String status,
    String fault,
    String reason,
    boolean sideEffect,
    String ledgerKey,
    List<String> artifactRefs,
    int attempts,
    String evidence) {

  /** Copies {@code artifactRefs}; a {@code null} list is an empty one. */
  public HfrFailureDetails {
    artifactRefs = artifactRefs == null ? List.of() : List.copyOf(artifactRefs);
  }
}
