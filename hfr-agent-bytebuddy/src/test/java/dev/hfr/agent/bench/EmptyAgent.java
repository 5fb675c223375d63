package dev.hfr.agent.bench;

import java.lang.instrument.Instrumentation;

/**
 * The floor under {@link NoOpAgent}: a {@code -javaagent} whose premain does nothing and registers no
 * transformer. What it costs, every Java agent costs on the same JVM (the {@code java.instrument} module, the
 * agent jar's loading and, with an agent, no archived module graph), whatever it does itself; the agent, which
 * removes its transformer after start-up, is measured against it ({@code bench/startup-cpu.sh}, variant
 * {@code empty}).
 */
public final class EmptyAgent {

  private EmptyAgent() {}

  /** The entry point: does nothing. */
  public static void premain(String options, Instrumentation inst) {}
}
