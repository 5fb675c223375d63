package dev.hfr.runtime.internal.engine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The source of the one-call tasks of calls made outside any scope. The engine asks it for a task only
 * when a call leaves the clean path (a failure, a rejection, a write), so a clean read outside a scope
 * allocates no task and touches no shared counter; task ids stay unique ({@code prefix-seq}).
 */
public final class ImplicitTasks {

  private final String tenant;
  private final String prefix;
  private final int maxRetries;
  private final AtomicLong seq = new AtomicLong();

  /**
   * @param tenant the tenant of calls outside a scope
   * @param prefix the id prefix of their tasks
   * @param maxRetries B_t of each such task, or -1 for unlimited
   */
  public ImplicitTasks(String tenant, String prefix, int maxRetries) {
    this.tenant = tenant;
    this.prefix = prefix;
    this.maxRetries = maxRetries;
  }

  public String tenant() {
    return tenant;
  }

  /** A new one-call task; its id ({@link #nextId()}) is taken when it is first asked for. */
  OneCallTask next() {
    return new OneCallTask(this);
  }

  /** B_t of each one-call task, or -1 for unlimited. */
  int maxRetries() {
    return maxRetries;
  }

  /** The next unique task id, {@code prefix-seq}. */
  String nextId() {
    return prefix + "-" + seq.incrementAndGet();
  }
}
