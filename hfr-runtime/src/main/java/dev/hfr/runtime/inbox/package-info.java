/**
 * The inbox: one durable list of what waits for a person — escalations (a write of unknown outcome, an
 * irreversible failure, a rejected write, a policy refusal, a human rung, a spot check) and approval requests —
 * kept in the ledger's store, and the answers people give ({@link dev.hfr.runtime.inbox.Answer}), which flow back
 * to the model's next call of the same write. The engine's {@code hfr.inbox()} is the Java API.
 */
package dev.hfr.runtime.inbox;
