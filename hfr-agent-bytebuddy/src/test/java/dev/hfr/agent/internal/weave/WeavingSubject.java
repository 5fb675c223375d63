package dev.hfr.agent.internal.weave;

import java.io.UncheckedIOException;
import java.net.http.HttpRequest;

/**
 * Methods shaped like the ones the agent hooks, and harder: a loop back to the first instruction, a
 * try/catch of their own, wide locals, a primitive return, a static method. {@link HookWeaverTest} weaves
 * hooks into a copy of this class and runs it (fully verified, in a class loader of its own).
 */
public class WeavingSubject {

  /** How many times a body ran. */
  public int bodies;

  /** Matched by the JDK client's {@code send} hook: {@code mode} says how to end. */
  public String send(HttpRequest request, Object mode) throws Exception {
    long spins = 0;
    double weight = 1.5;
    do { // a jump back to the body's first instruction
      spins++;
    } while (spins < 3);
    bodies++;
    try {
      if ("io".equals(mode)) {
        throw new java.io.IOException("refused");
      }
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e); // the method's own handler still catches first
    }
    if ("checked".equals(mode)) {
      throw new Exception("checked");
    }
    return request.method() + " " + spins + " " + weight + " " + bodies;
  }

  /** A primitive return, matched by {@link HookWeaverTest}'s own hook. */
  public int status(HttpRequest request, int code) {
    int doubled = code * 2;
    if (code < 0) {
      throw new IllegalArgumentException("negative");
    }
    return doubled / 2;
  }

  /** A static method with a wide argument before the request. */
  public static long elapsed(long since, HttpRequest request) {
    return since + request.uri().getPort();
  }
}
