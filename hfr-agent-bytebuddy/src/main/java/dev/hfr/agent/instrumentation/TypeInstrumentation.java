package dev.hfr.agent.instrumentation;

import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * How one HTTP client is instrumented: which classes (by exact name, so that looking at the application's
 * other classes costs one set lookup each) and which advice goes on which methods.
 */
public interface TypeInstrumentation {

  /** The bridge slot of the client ({@code HfrBridge.JDK_HTTP_CLIENT}...). */
  int client();

  /** The exact names of the classes to instrument (binary names, {@code a.b.C$D}). */
  List<String> classNames();

  /**
   * Adds the advice to {@code advice}, which already knows where the advice classes' bytes are; the
   * advice classes are never loaded, only read and inlined.
   */
  AgentBuilder.Transformer.ForAdvice transformer(AgentBuilder.Transformer.ForAdvice advice);
}
