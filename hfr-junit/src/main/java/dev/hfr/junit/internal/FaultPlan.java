package dev.hfr.junit.internal;

import dev.hfr.annotations.Fault;
import dev.hfr.junit.InjectFault;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The faults of one test, checked up front, and the per-tool counters of physical calls. Thread-safe:
 * tools may run on several threads.
 */
public final class FaultPlan {

  /** One planned fault. */
  public record Planned(String tool, int firstCall, int times, Fault fault, boolean commitThenDrop, int retryAfterSeconds) {
    boolean covers(int call) {
      return call >= firstCall && call < firstCall + times;
    }
  }

  /** A fault that was injected. */
  public record Injected(String tool, int call, Fault fault, boolean committedFirst) {}

  private final List<Planned> planned;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final List<Injected> injected = java.util.Collections.synchronizedList(new ArrayList<>());

  private FaultPlan(List<Planned> planned) {
    this.planned = List.copyOf(planned);
  }

  /**
   * Checks the annotations and builds the plan.
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong with it
   */
  public static FaultPlan of(List<InjectFault> annotations) {
    List<Planned> out = new ArrayList<>();
    for (InjectFault a : annotations) {
      String where = "@InjectFault(tool = \"" + a.tool() + "\", call = " + a.call() + ", fault = " + a.fault() + ")";
      if (a.tool().isBlank() || !a.tool().contains(".")) {
        throw new IllegalArgumentException(where + ": tool must be 'SimpleClassName.method', e.g. \"ShopTools.createOrder\"");
      }
      if (a.call() < 1) {
        throw new IllegalArgumentException(where + ": call counts from 1");
      }
      if (a.times() < 1) {
        throw new IllegalArgumentException(where + ": times must be at least 1, was " + a.times());
      }
      if (a.fault() == Fault.V1) {
        throw new IllegalArgumentException(where + ": V1 is a verifier's rejection, not a transport failure;"
            + " make the tool return a result its verifier rejects instead");
      }
      if (a.retryAfterSeconds() < 0) {
        throw new IllegalArgumentException(where + ": retryAfterSeconds must not be negative");
      }
      for (Planned p : out) {
        if (p.tool().equals(a.tool()) && a.call() < p.firstCall() + p.times() && p.firstCall() < a.call() + a.times()) {
          throw new IllegalArgumentException(where + " overlaps another fault planned for call " + p.firstCall() + " of the same tool");
        }
      }
      out.add(new Planned(a.tool(), a.call(), a.times(), a.fault(), a.commitThenDrop(), a.retryAfterSeconds()));
    }
    return new FaultPlan(out);
  }

  /**
   * Checks that every planned fault names a tool that exists, so a misspelled name fails the test at once
   * instead of injecting nothing and letting the test fail far from the cause.
   *
   * @throws IllegalArgumentException naming the unknown tool and listing the known ones
   */
  public void requireKnownTools(Collection<String> known) {
    for (Planned p : planned) {
      if (!known.contains(p.tool())) {
        String names = known.isEmpty()
            ? "no tools are registered: is hfr-processor on the annotation processor path of this module?"
            : "known tools: " + String.join(", ", new TreeSet<>(known));
        throw new IllegalArgumentException("@InjectFault(tool = \"" + p.tool() + "\") names no HFR tool; " + names);
      }
    }
  }

  /** Counts a physical call of {@code tool} and returns the fault planned for it, or {@code null}. */
  public Planned onCall(String tool) {
    int n = calls.computeIfAbsent(tool, t -> new AtomicInteger()).incrementAndGet();
    for (Planned p : planned) {
      if (p.tool().equals(tool) && p.covers(n)) {
        injected.add(new Injected(tool, n, p.fault(), p.commitThenDrop()));
        return p;
      }
    }
    return null;
  }

  /** Physical calls of {@code tool} so far. */
  public int calls(String tool) {
    AtomicInteger n = calls.get(tool);
    return n == null ? 0 : n.get();
  }

  /** The faults injected so far, in order. */
  public List<Injected> injected() {
    synchronized (injected) {
      return List.copyOf(injected);
    }
  }

  public List<Planned> planned() {
    return planned;
  }
}
