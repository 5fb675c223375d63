package dev.hfr.agent;

import java.io.IOException;

/**
 * The weaver's classes: ASM's (relocated) and the agent's own {@code internal.weave} package, which the agent
 * needs when it weaves its first class. They are defined in the bootstrap class loader, like the bridge, rather
 * than loaded from the agent jar by the system class loader: the JVM verifies the bytecode of every class outside
 * the bootstrap loader, and for ASM's large reader and writer, and the weaver's method rewriter, that verification
 * (and the class path lookups) was half of what loading them cost, on the start-up of every JVM
 * (docs/AGENT.md, "Start-up").
 *
 * <p>Each package whole or not at all: classes of one package in two loaders could not use each other's
 * package-private members. The weaver's classes refer only to ASM, the JDK and (by name, in the code they write)
 * the bridge, all of which the bootstrap loader sees; the instrumentations (system class loader) implement its
 * public {@code MethodHook}. {@code AgentJarIT} checks that these lists are the whole packages in the jar, each
 * class after its superclass.
 */
final class WeaverClasses {

  private static final String ASM_PACKAGE = "dev.hfr.agent.shaded.org.objectweb.asm.";
  private static final String WEAVER_PACKAGE = "dev.hfr.agent.internal.weave.";

  /** ASM's core package, each class after its superclass, so that the bootstrap loader can resolve it when it is defined. */
  static final String[] ASM = names(ASM_PACKAGE,
      "Opcodes", "AnnotationVisitor", "ClassVisitor", "FieldVisitor", "MethodVisitor", "ModuleVisitor",
      "RecordComponentVisitor", "Symbol", "Frame", "Attribute", "Attribute$Set", "ByteVector", "ClassReader",
      "ClassTooLargeException", "ClassWriter", "ConstantDynamic", "Constants", "Context", "CurrentFrame", "Edge",
      "AnnotationWriter", "FieldWriter", "Handle", "Handler", "Label", "MethodTooLargeException", "MethodWriter",
      "ModuleWriter", "RecordComponentWriter", "SymbolTable", "SymbolTable$Entry", "SymbolTable$LabelEntry", "Type",
      "TypePath", "TypeReference");

  /** The agent's weaver ({@code HookWeaver} and what it uses), after ASM, whose visitors it extends. */
  static final String[] WEAVER = names(WEAVER_PACKAGE,
      "MethodHook", "HookCode", "HookedMethod", "HookWeaver", "HookWeaver$HookingClass");

  /** Both, in the order they are defined. */
  static final String[] IN_DEFINITION_ORDER = concat(ASM, WEAVER);

  private WeaverClasses() {}

  /**
   * Defines ASM and the weaver in the bootstrap class loader, once. When that is not possible (the bridge had to
   * come from the fallback jar, or ASM is loaded already), nothing is defined and the system class loader loads
   * them from the agent jar as usual.
   */
  static void defineInBootstrap() {
    long began = System.nanoTime();
    try {
      if (BootstrapInjector.defineInBootstrap(IN_DEFINITION_ORDER)) {
        AgentLog.debug("defined ASM and the weaver in the bootstrap class loader in " + AgentLog.millisSince(began));
      }
    } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
      AgentLog.debug("ASM and the weaver are loaded from the agent jar instead of the bootstrap class loader: " + e);
    }
  }

  private static String[] names(String packagePrefix, String... simpleNames) {
    String[] names = new String[simpleNames.length];
    for (int i = 0; i < simpleNames.length; i++) {
      names[i] = packagePrefix + simpleNames[i];
    }
    return names;
  }

  private static String[] concat(String[] first, String[] second) {
    String[] both = new String[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
