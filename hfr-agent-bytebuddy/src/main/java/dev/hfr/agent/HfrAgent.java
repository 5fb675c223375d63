package dev.hfr.agent;

import dev.hfr.agent.internal.config.AgentOptions;
import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points: {@code premain} for {@code -javaagent:hfr-agent.jar[=options]}, {@code agentmain}
 * for {@code java -jar hfr-agent.jar attach PID [options]}. Whatever goes wrong here is reported on stderr
 * and the application goes on without the agent.
 *
 * <p>This class must not touch {@code dev.hfr.agent.internal.bootstrap} before {@link BootstrapInjector} has put it
 * into the bootstrap class loader; everything that does lives in {@link AgentInstaller}.
 */
public final class HfrAgent {

  private HfrAgent() {}

  /** {@code -javaagent} entry point. */
  public static void premain(String options, Instrumentation inst) {
    start(options, inst, "start-up");
  }

  /** Attach entry point: instruments classes already loaded, too. */
  public static void agentmain(String options, Instrumentation inst) {
    start(options, inst, "attach");
  }

  private static synchronized void start(String optionText, Instrumentation inst, String how) {
    long began = System.nanoTime();
    try {
      AgentOptions options = AgentOptions.parse(optionText);
      for (String problem : options.problems()) {
        AgentLog.warn(problem);
      }
      if (!BootstrapInjector.inject(inst)) {
        AgentLog.warn("the agent is already running in this JVM; this " + how + " is ignored");
        return;
      }
      AgentInstaller.install(options, inst, how.equals("attach"), began);
    } catch (Throwable t) {
      AgentLog.warn("could not start; the application runs without the agent: " + t);
    }
  }
}
