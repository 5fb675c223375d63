package dev.hfr.agent.internal.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * The weaver, as the agent's start-up path sees it: implemented with Byte Buddy in {@code dev.hfr.agent.internal.weave},
 * which a class loader of its own reads from the agent jar's nested weaver jar ({@code WeaverLoader}) the first time a
 * class is woven. Only JDK types cross this interface, so the agent's other classes never name Byte Buddy.
 */
public interface Weaving {

  /**
   * The class with its client's advice inlined, or {@code null} when it has no method to advise.
   *
   * @param loader the class's loader ({@code null}: the bootstrap loader)
   * @param internalName a class of {@link HttpClientInstrumentations#classNames}, as {@code a/b/C$D}
   * @param client its bridge slot
   * @param classFile the class file the JVM handed the transformer
   */
  byte[] weave(ClassLoader loader, String internalName, int client, byte[] classFile);

  /**
   * Attaching to a running JVM: Byte Buddy's {@code AgentBuilder} retransforms the instrumented classes of
   * {@code clients} that are loaded already and stays registered for those that load later. Named modules that get
   * advice are made to read {@code bridgeModule}.
   */
  void installOnAttach(Instrumentation inst, List<Integer> clients, Module bridgeModule);
}
