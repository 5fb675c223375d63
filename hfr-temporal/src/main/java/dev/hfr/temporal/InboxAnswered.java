package dev.hfr.temporal;

/**
 * A person's answer to an inbox item, as the signal {@value InboxSignals#SIGNAL} carries it to the workflow whose
 * activity's call waited for it. The workflow calls the activity again; the call then gets the answer (a replay of
 * "it happened", one send after "it did not happen" or "approve", the refusal of "deny" or "leave it").
 *
 * @param itemId the inbox item
 * @param ledgerKey the write's ledger key ({@link HfrFailureDetails#ledgerKey()} of the activity's failure)
 * @param answer the answer's code: {@code happened}, {@code did_not_happen}, {@code leave}, {@code approve}, {@code deny}
 * @param by who answered
 * @param reason why
 */
public record InboxAnswered(String itemId, String ledgerKey, String answer, String by, String reason) {}
