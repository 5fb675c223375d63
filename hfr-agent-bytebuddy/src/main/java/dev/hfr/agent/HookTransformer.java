package dev.hfr.agent;

import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import dev.hfr.agent.internal.weave.HookWeaver;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;
import java.util.Map;

/**
 * Weaves the hooks of the instrumentation that names a class into it ({@link HookWeaver}, ASM).
 * {@link LazyTransformer} has already matched the class by name; this finds its client, and builds that
 * client's hooks the first time one of its classes loads (a JVM using the JDK client never loads the
 * OkHttp hooks).
 */
final class HookTransformer {

  private final Map<String, Integer> clientByInternalName;
  private final List<MethodHook>[] hooksByClient;

  /** @param clientByInternalName the bridge slot of each instrumented class, by internal name ({@code a/b/C$D}) */
  @SuppressWarnings("unchecked")
  HookTransformer(Map<String, Integer> clientByInternalName, int clients) {
    this.clientByInternalName = clientByInternalName;
    this.hooksByClient = new List[clients];
  }

  /** The class with its hooks woven in, or {@code null} when {@code internalName} is not instrumented. */
  byte[] transform(String internalName, byte[] classFile) {
    Integer client = clientByInternalName.get(internalName);
    return client == null ? null : HookWeaver.weave(classFile, hooks(client));
  }

  /**
   * Builds the hooks of {@code clients}, loads the weaver's classes and the JDK classes their instrumented classes are
   * defined after ({@link HttpClientInstrumentations#loadedFirst}), without weaving anything: every class loaded while
   * a transformer is registered costs the JVM a copy of its class file and a call of the transformer.
   */
  void prepare(List<Integer> clients) {
    for (int client : clients) {
      hooks(client);
      for (String name : HttpClientInstrumentations.loadedFirst(client)) {
        try {
          Class.forName(name, false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException | LinkageError notInThisRuntime) {
          AgentLog.debug(name + " is not in this runtime: " + notInThisRuntime);
        }
      }
    }
    HookWeaver.classes();
  }

  private synchronized List<MethodHook> hooks(int client) {
    if (hooksByClient[client] == null) {
      hooksByClient[client] = HttpClientInstrumentations.hooks(client);
    }
    return hooksByClient[client];
  }
}
