package dev.hfr.agent;

import java.io.IOException;

/**
 * ASM's classes (relocated), which the weaver needs when the first instrumented class loads. They are
 * defined in the bootstrap class loader, like the bridge, rather than loaded from the agent jar by the
 * system class loader: the JVM verifies the bytecode of every class outside the bootstrap loader, and for
 * ASM's large reader and writer that verification (and the class path lookups) was half of what loading
 * them cost, some 15 ms of CPU on the first request of every JVM (docs/AGENT.md, "Start-up").
 *
 * <p>All of ASM's core package or none of it: classes of one package in two loaders could not use each
 * other's package-private members. {@code AgentJarIT} checks that this list is the whole package in the
 * jar, each class after its superclass.
 */
final class AsmClasses {

  private static final String PACKAGE = "dev.hfr.agent.shaded.org.objectweb.asm.";

  /** Each class after its superclass, so that the bootstrap loader can resolve it when it is defined. */
  static final String[] IN_DEFINITION_ORDER = names(
      "Opcodes", "AnnotationVisitor", "ClassVisitor", "FieldVisitor", "MethodVisitor", "ModuleVisitor",
      "RecordComponentVisitor", "Symbol", "Frame", "Attribute", "Attribute$Set", "ByteVector", "ClassReader",
      "ClassTooLargeException", "ClassWriter", "ConstantDynamic", "Constants", "Context", "CurrentFrame", "Edge",
      "AnnotationWriter", "FieldWriter", "Handle", "Handler", "Label", "MethodTooLargeException", "MethodWriter",
      "ModuleWriter", "RecordComponentWriter", "SymbolTable", "SymbolTable$Entry", "SymbolTable$LabelEntry", "Type",
      "TypePath", "TypeReference");

  private AsmClasses() {}

  /**
   * Defines ASM in the bootstrap class loader, once. When that is not possible (the bridge had to come from
   * the fallback jar, or ASM is loaded already), nothing is defined and the system class loader loads ASM
   * from the agent jar as usual.
   */
  static void defineInBootstrap() {
    long began = System.nanoTime();
    try {
      if (BootstrapInjector.defineInBootstrap(IN_DEFINITION_ORDER)) {
        AgentLog.debug("defined ASM in the bootstrap class loader in " + AgentLog.millisSince(began));
      }
    } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
      AgentLog.debug("ASM is loaded from the agent jar instead of the bootstrap class loader: " + e);
    }
  }

  private static String[] names(String... simpleNames) {
    String[] names = new String[simpleNames.length];
    for (int i = 0; i < simpleNames.length; i++) {
      names[i] = PACKAGE + simpleNames[i];
    }
    return names;
  }
}
