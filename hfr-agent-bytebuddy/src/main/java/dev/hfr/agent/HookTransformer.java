package dev.hfr.agent;

import dev.hfr.agent.internal.instrumentation.TypeInstrumentation;
import dev.hfr.agent.internal.weave.HookWeaver;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Weaves the hooks of the instrumentation that names a class into it ({@link HookWeaver}, ASM).
 * {@link LazyTransformer} has already matched the class by name; this finds its hooks.
 */
final class HookTransformer {

  private final Map<String, List<MethodHook>> hooksByInternalName = new HashMap<>();

  /** @param instrumentations the enabled instrumentations */
  HookTransformer(List<TypeInstrumentation> instrumentations) {
    for (TypeInstrumentation instrumentation : instrumentations) {
      List<MethodHook> hooks = instrumentation.hooks();
      for (String name : instrumentation.classNames()) {
        hooksByInternalName.put(name.replace('.', '/'), hooks);
      }
    }
  }

  /** The class with its hooks woven in, or {@code null} when {@code internalName} is not instrumented. */
  byte[] transform(String internalName, byte[] classFile) {
    List<MethodHook> hooks = hooksByInternalName.get(internalName);
    return hooks == null ? null : HookWeaver.weave(classFile, hooks);
  }
}
