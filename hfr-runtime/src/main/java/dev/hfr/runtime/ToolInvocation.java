package dev.hfr.runtime;

import java.util.Optional;

/**
 * One call of a tool method, as the generated proxy hands it to the runtime: the direct calls of the
 * method itself, its reconcile and compensate methods and its degradation rungs, over the arguments of
 * this call. Generated subclasses implement these with plain method calls — no reflection, no lookup by
 * name.
 *
 * @param <R> the tool method's return type (boxed for primitives)
 */
public abstract class ToolInvocation<R> {

  /**
   * Calls the tool method once.
   *
   * @param idempotencyKey for an R1 method, the key to pass in its {@code @IdempotencyKey} parameter
   *     (the same on every attempt); {@code null} for other methods
   */
  public abstract R proceed(String idempotencyKey) throws Exception;

  /** The number of arguments of this call. */
  public abstract int argumentCount();

  /** The argument at {@code index}; used to derive idempotency keys and argument hashes. */
  public abstract Object argument(int index);

  /**
   * Asks the reconcile method whether the write of this call committed: present = committed with this
   * result, empty = absent, an exception = still unknown.
   *
   * @throws UnsupportedOperationException if the method declares no reconcile method
   */
  public Optional<R> reconcile() throws Exception {
    throw new UnsupportedOperationException("this tool method declares no reconcile method");
  }

  /**
   * Undoes a committed write of this call through the compensate method. The engine calls it only from
   * {@code TaskScope.compensate} / {@code compensateAll} / {@code Hfr.compensate}, as a guarded write with
   * its own ledger record, after checking that the call's record is committed.
   *
   * @throws UnsupportedOperationException if the method declares no compensate method
   */
  public void compensate() throws Exception {
    throw new UnsupportedOperationException("this tool method declares no compensate method");
  }

  /**
   * Calls rung {@code index} of the degradation ladder (an index into
   * {@link ToolDescriptor#degradeLadder()}) with this call's arguments.
   *
   * @throws IndexOutOfBoundsException if there is no such rung
   */
  public R degrade(int index) throws Exception {
    throw new IndexOutOfBoundsException("this tool method has no degradation rung " + index);
  }
}
