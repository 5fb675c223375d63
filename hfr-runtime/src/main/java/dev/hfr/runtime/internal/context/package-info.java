/**
 * The task a thread works for, and how it follows work to other threads: {@link
 * dev.hfr.runtime.internal.context.TaskContext} holds it, {@link dev.hfr.runtime.internal.context.TaskContextAccessor}
 * lets Micrometer's context-propagation (and so Reactor, Spring and wrapped executors) carry it, and
 * {@link dev.hfr.runtime.internal.context.TaskPropagation} implements {@code TaskScope.wrap(...)}; {@link
 * dev.hfr.runtime.internal.context.ClosedElsewhere} is {@code TaskScope}'s rule for a thread whose task was closed on
 * another thread, for the work that thread hands over.
 */
package dev.hfr.runtime.internal.context;
