package dev.hfr.agent.internal;

import java.lang.reflect.Method;
import java.security.ProtectionDomain;

/**
 * Defines classes in the bootstrap class loader through the JDK's internal {@code Unsafe.defineClass}.
 * {@code BootstrapInjector} loads this class into a class loader of its own and exports
 * {@code jdk.internal.misc} to that loader's module alone, so neither the agent's other classes nor the
 * application gain access to it. Uses {@code java.base} only, and must not be loaded by the agent's own
 * class loader.
 */
public final class BootstrapDefiner {

  private BootstrapDefiner() {}

  /** Defines {@code classes[i]} under {@code names[i]} in the bootstrap class loader, in order. */
  public static void define(String[] names, byte[][] classes) throws ReflectiveOperationException {
    Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
    Object unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
    Method defineClass = unsafeType.getMethod("defineClass",
        String.class, byte[].class, int.class, int.class, ClassLoader.class, ProtectionDomain.class);
    for (int i = 0; i < names.length; i++) {
      defineClass.invoke(unsafe, names[i], classes[i], 0, classes[i].length, null, null);
    }
  }
}
