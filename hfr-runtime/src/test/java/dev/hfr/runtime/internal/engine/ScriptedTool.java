package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ToolInvocation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * A hand-written tool invocation that plays a script: each attempt of the method takes the next step
 * (a value to return or an exception to throw); rungs and reconcile answer from their own scripts. It
 * records every key it was given, so tests can check that writes reuse one key.
 */
class ScriptedTool<R> extends ToolInvocation<R> {

  private final Deque<Callable<R>> method = new ArrayDeque<>();
  private final List<Deque<Callable<R>>> rungs = new ArrayList<>();
  private final Deque<Callable<Optional<R>>> reconcile = new ArrayDeque<>();
  private final Object[] args;
  final List<String> keys = Collections.synchronizedList(new ArrayList<>());
  int methodCalls;
  int reconcileCalls;
  final int[] rungCalls = new int[8];

  ScriptedTool(Object... args) {
    this.args = args;
  }

  ScriptedTool<R> returns(R value) {
    method.add(() -> value);
    return this;
  }

  /** The next attempt runs {@code step}: for a script whose steps do more than answer (advance virtual time). */
  ScriptedTool<R> then(Callable<R> step) {
    method.add(step);
    return this;
  }

  ScriptedTool<R> fails(Exception e) {
    method.add(() -> {
      throw e;
    });
    return this;
  }

  ScriptedTool<R> failsTimes(int n, Exception e) {
    for (int i = 0; i < n; i++) {
      fails(e);
    }
    return this;
  }

  ScriptedTool<R> rungReturns(int rung, R value) {
    rung(rung).add(() -> value);
    return this;
  }

  ScriptedTool<R> rungFails(int rung, Exception e) {
    rung(rung).add(() -> {
      throw e;
    });
    return this;
  }

  ScriptedTool<R> reconcileFinds(R value) {
    reconcile.add(() -> Optional.of(value));
    return this;
  }

  /** The reconcile method answers {@code null} instead of an {@code Optional}: neither present nor absent. */
  ScriptedTool<R> reconcileAnswersNull() {
    reconcile.add(() -> null);
    return this;
  }

  ScriptedTool<R> reconcileFindsNothing() {
    reconcile.add(Optional::empty);
    return this;
  }

  ScriptedTool<R> reconcileFails(Exception e) {
    reconcile.add(() -> {
      throw e;
    });
    return this;
  }

  private Deque<Callable<R>> rung(int i) {
    while (rungs.size() <= i) {
      rungs.add(new ArrayDeque<>());
    }
    return rungs.get(i);
  }

  @Override
  public R proceed(String idempotencyKey) throws Exception {
    methodCalls++;
    keys.add(idempotencyKey);
    Callable<R> next = method.size() > 1 ? method.poll() : method.peek();
    if (next == null) {
      throw new IllegalStateException("script exhausted");
    }
    return next.call();
  }

  @Override
  public int argumentCount() {
    return args.length;
  }

  @Override
  public Object argument(int index) {
    return args[index];
  }

  @Override
  public Optional<R> reconcile() throws Exception {
    reconcileCalls++;
    Callable<Optional<R>> next = reconcile.size() > 1 ? reconcile.poll() : reconcile.peek();
    if (next == null) {
      throw new UnsupportedOperationException("no reconcile scripted");
    }
    return next.call();
  }

  @Override
  public R degrade(int index) throws Exception {
    if (index >= rungs.size()) {
      throw new IndexOutOfBoundsException("no rung " + index);
    }
    rungCalls[index]++;
    Deque<Callable<R>> d = rungs.get(index);
    Callable<R> next = d.size() > 1 ? d.poll() : d.peek();
    return next.call();
  }
}
