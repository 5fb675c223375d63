/**
 * The task a thread works for, and how it follows work to other threads: {@link
 * dev.hfr.runtime.internal.context.TaskContext} holds it, {@link dev.hfr.runtime.internal.context.TaskContextAccessor}
 * lets Micrometer's context-propagation (and so Reactor, Spring and wrapped executors) carry it, and
 * {@link dev.hfr.runtime.internal.context.TaskPropagation} implements {@code TaskScope.wrap(...)}.
 */
package dev.hfr.runtime.internal.context;
