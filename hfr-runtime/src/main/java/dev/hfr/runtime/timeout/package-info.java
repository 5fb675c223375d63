/**
 * What a timed-out call ends with: {@link dev.hfr.runtime.timeout.AttemptTimeoutException}, the cause of the
 * {@code ToolCallException} when an attempt, reconcile or compensation ran out of its time. The attempt runs
 * on the caller's thread and one shared timer thread of the engine interrupts it when its time is up.
 */
package dev.hfr.runtime.timeout;
