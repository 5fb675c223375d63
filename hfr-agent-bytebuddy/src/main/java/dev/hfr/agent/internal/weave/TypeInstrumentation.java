package dev.hfr.agent.internal.weave;

import java.util.List;

/**
 * How one HTTP client is instrumented: which advice goes on which declared methods of its classes. The classes
 * themselves are named in {@code HttpClientInstrumentations}, which the agent's start-up path reads without loading
 * Byte Buddy.
 */
interface TypeInstrumentation {

  /**
   * The advice classes' package: they are named, never loaded (a class literal would load them, and the JVM would then
   * verify advice written against client classes this loader cannot see).
   */
  String ADVICE = "dev.hfr.agent.internal.advice.";

  /** The bridge slot of the client ({@code HfrBridge.JDK_HTTP_CLIENT}...). */
  int client();

  /** What is inlined into the declared methods of the client's classes: each method gets the first advice that matches it. */
  List<MethodAdvice> advice();
}
