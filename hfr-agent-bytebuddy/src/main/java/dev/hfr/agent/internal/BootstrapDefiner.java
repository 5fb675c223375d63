package dev.hfr.agent.internal;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;

/**
 * Defines classes in the bootstrap class loader through the JDK's internal {@code Unsafe.defineClass}.
 * {@code BootstrapInjector} loads this class into a class loader of its own and exports
 * {@code jdk.internal.misc} to that loader's module alone, so neither the agent's other classes nor the
 * application gain access to it. Uses {@code java.base} only, and must not be loaded by the agent's own
 * class loader.
 *
 * <p>{@code Unsafe.defineClass} is called through reflection, so only for the first class of each package:
 * the others are defined with a {@link MethodHandles.Lookup} on that first class, which may define classes
 * in its own package and loader (the bootstrap loader's unnamed module opens its packages to everyone).
 * Reflection would otherwise, from the sixteenth call on, generate a method accessor, some ten JDK classes and
 * a compiled class of its own on the first request of every JVM (docs/AGENT.md, "Start-up").
 */
public final class BootstrapDefiner {

  private BootstrapDefiner() {}

  /** Defines {@code classes[i]} under {@code names[i]} in the bootstrap class loader, in order. */
  public static void define(String[] names, byte[][] classes) throws ReflectiveOperationException {
    Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
    Object unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
    Method defineClass = unsafeType.getMethod("defineClass",
        String.class, byte[].class, int.class, int.class, ClassLoader.class, ProtectionDomain.class);
    MethodHandles.Lookup inPackage = null;
    String packagePrefix = null;
    for (int i = 0; i < names.length; i++) {
      if (inPackage != null && isInPackage(names[i], packagePrefix)) {
        inPackage.defineClass(classes[i]);
      } else {
        Class<?> first = (Class<?>) defineClass.invoke(unsafe, names[i], classes[i], 0, classes[i].length, null, null);
        inPackage = MethodHandles.privateLookupIn(first, MethodHandles.lookup());
        packagePrefix = names[i].substring(0, names[i].lastIndexOf('.') + 1);
      }
    }
  }

  private static boolean isInPackage(String className, String packagePrefix) {
    return className.startsWith(packagePrefix) && className.indexOf('.', packagePrefix.length()) < 0;
  }
}
