/**
 * Attempt timeouts without a thread hop: the attempt runs on the caller's thread and one shared timer
 * thread interrupts it when its time is up ({@link dev.hfr.runtime.timeout.AttemptTimer}).
 */
package dev.hfr.runtime.timeout;
