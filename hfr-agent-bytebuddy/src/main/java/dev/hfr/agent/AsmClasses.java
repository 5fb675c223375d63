package dev.hfr.agent;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

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
   * Defines ASM in the bootstrap class loader, once, its class files read in one pass from the nested jar
   * {@link NestedJar#ASM} (one entry of the agent jar, stored: reading 35 entries one by one cost ~5 ms, docs/AGENT.md
   * "Sixth round"). When that is not possible (the bridge had to come from the fallback jar, or the nested jar is not
   * there), the nested jar is appended to the system class loader's search path instead, which then loads ASM from
   * it, verified, as any class; when ASM is in the bootstrap loader already, nothing happens.
   */
  static synchronized void defineInBootstrap() {
    long began = System.nanoTime();
    try {
      if (BootstrapInjector.canDefineInBootstrap(IN_DEFINITION_ORDER[0])) {
        BootstrapInjector.defineInBootstrap(IN_DEFINITION_ORDER, classFiles());
        AgentLog.debug("defined ASM in the bootstrap class loader in " + AgentLog.millisSince(began));
        return;
      }
      if (BootstrapInjector.inBootstrap(IN_DEFINITION_ORDER[0])) {
        return;
      }
      AgentLog.debug("ASM is loaded by the system class loader: the bridge was not defined directly (the fallback jar)");
    } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
      AgentLog.debug("ASM is loaded by the system class loader instead of the bootstrap class loader: " + e);
    }
    NestedJar.ASM.open();
  }

  /**
   * ASM's class files in {@link #IN_DEFINITION_ORDER}, from the nested jar, streamed from the agent jar into one array
   * per class of its exact size. Reading the nested jar into an array first, then each class with
   * {@code readAllBytes} (which fills 8 KB buffers and copies them), allocated 1.3 MB for 263 KB of classes, enough
   * to tip a one-request JVM into a young collection (docs/AGENT.md, "Seventh round").
   */
  private static byte[][] classFiles() throws IOException {
    Map<String, Integer> order = new HashMap<>(64);
    for (int i = 0; i < IN_DEFINITION_ORDER.length; i++) {
      order.put(IN_DEFINITION_ORDER[i].replace('.', '/') + ".class", i);
    }
    byte[][] classFiles = new byte[IN_DEFINITION_ORDER.length][];
    try (BootstrapInjector.AgentJar jar = BootstrapInjector.AgentJar.open();
        ZipInputStream in = new ZipInputStream(jar.entry(NestedJar.ASM.entry()))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        Integer i = order.get(e.getName());
        if (i != null) {
          classFiles[i] = read(in, e);
        }
      }
    }
    for (int i = 0; i < classFiles.length; i++) {
      if (classFiles[i] == null) {
        throw new IOException(IN_DEFINITION_ORDER[i] + " is missing from " + NestedJar.ASM.entry());
      }
    }
    return classFiles;
  }

  /** The current entry's content; a stored entry's local header gives its size, so the array is read in place. */
  private static byte[] read(ZipInputStream in, ZipEntry e) throws IOException {
    if (e.getSize() < 0 || e.getSize() > Integer.MAX_VALUE) {
      return in.readAllBytes();
    }
    byte[] classFile = new byte[(int) e.getSize()];
    if (in.readNBytes(classFile, 0, classFile.length) != classFile.length || in.read() != -1) {
      throw new IOException(e.getName() + " in " + NestedJar.ASM.entry() + " is not " + classFile.length + " bytes long");
    }
    return classFile;
  }

  private static String[] names(String... simpleNames) {
    String[] names = new String[simpleNames.length];
    for (int i = 0; i < simpleNames.length; i++) {
      names[i] = PACKAGE + simpleNames[i];
    }
    return names;
  }
}
