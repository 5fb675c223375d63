package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;

/**
 * How one HTTP client is instrumented: which classes (by exact name, so that looking at the application's
 * other classes costs one set lookup each) and which hooks go on which of their methods.
 *
 * <p>{@link #client()} and {@link #classNames()} are asked at start-up and must not touch ASM;
 * {@link #hooks()} is asked only when one of the classes loads.
 */
public interface TypeInstrumentation {

  /** The bridge slot of the client ({@code HfrBridge.JDK_HTTP_CLIENT}...). */
  int client();

  /** The exact names of the classes to instrument (binary names, {@code a.b.C$D}). */
  List<String> classNames();

  /** What is woven into the declared methods of those classes: each method gets the first hook that matches it. */
  List<MethodHook> hooks();
}
