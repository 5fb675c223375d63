package dev.hfr.agent;

import dev.hfr.agent.internal.BootstrapDefiner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

/**
 * Puts the {@code dev.hfr.agent.internal.bootstrap} classes into the bootstrap class loader, where the advice
 * inlined into {@code java.base} and {@code java.net.http} classes can see them. The system class loader
 * asks its parents first, so from then on the agent's own code gets the same bootstrap copies.
 *
 * <p>They are defined directly ({@link BootstrapDefiner}), with no file. Only if that is refused (a JDK
 * without {@code jdk.internal.misc.Unsafe.defineClass}, or {@code -Dhfr.agent.bootstrap=jar}) are they copied into a
 * small jar in the temporary folder that is appended to the bootstrap search path: that works everywhere, but it
 * costs a file and a zip writer at start-up, and the JVM then stops using its class data sharing archive for every
 * class not loaded by the bootstrap loader ("Sharing is only supported for boot loader classes because
 * bootstrap classpath has been appended"), which slows down the application's own class loading.
 *
 * <p>Plain JDK API on purpose: this runs before anything else, and must not load Byte Buddy.
 */
final class BootstrapInjector {

  static final String BRIDGE = "dev.hfr.agent.internal.bootstrap.HfrBridge";
  /** The bridge's classes; the interface first, so that it is there when the class that uses it is defined. */
  private static final String[] CLASSES = {"dev.hfr.agent.internal.bootstrap.HttpCallHooks", BRIDGE,
      "dev.hfr.agent.internal.bootstrap.CallDepth", "dev.hfr.agent.internal.bootstrap.CallDepth$Depths"};
  private static final String DEFINER = "dev.hfr.agent.internal.BootstrapDefiner";
  /** The diagnostic system property that can turn the direct definition off ({@link #directDefinition}). */
  static final String MODE = "hfr.agent.bootstrap";

  private BootstrapInjector() {}

  /** Injects the bridge; false when an earlier start of the agent in this JVM injected it already. */
  static boolean inject(Instrumentation inst) throws IOException, ClassNotFoundException {
    if (inBootstrap()) {
      return false;
    }
    byte[][] classes = new byte[CLASSES.length + 1][];
    try (AgentJar jar = AgentJar.open()) {
      for (int i = 0; i < CLASSES.length; i++) {
        classes[i] = jar.classFile(CLASSES[i]);
      }
      classes[CLASSES.length] = jar.classFile(DEFINER);
    }
    if (directDefinition()) {
      try {
        defineDirectly(inst, classes);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError refused) {
        AgentLog.debug("cannot define the bridge directly (" + refused + "); appending a jar to the bootstrap search path");
      }
    } else {
      AgentLog.debug("-D" + MODE + "=jar: appending a jar to the bootstrap search path");
    }
    if (!inBootstrap()) {
      appendJar(inst, classes);
    }
    if (!inBootstrap()) {
      throw new ClassNotFoundException(BRIDGE + " is not visible from the bootstrap class loader after injection");
    }
    return true;
  }

  /**
   * Whether to try the direct definition: unless {@code -Dhfr.agent.bootstrap=jar}, a diagnostic setting that takes the
   * fallback on any JDK (docs/AGENT.md, "Temporary files"); a value other than {@code define} or {@code jar} is
   * reported and the default kept.
   */
  private static boolean directDefinition() {
    String mode = System.getProperty(MODE);
    if (mode == null || mode.equals("define")) {
      return true;
    }
    if (mode.equals("jar")) {
      return false;
    }
    AgentLog.warn("-D" + MODE + "=" + mode + " is neither define nor jar; the bridge is defined directly (define)");
    return true;
  }

  /** @param classes the class files of {@link #CLASSES}, then the definer's */
  private static void defineDirectly(Instrumentation inst, byte[][] classes) throws ReflectiveOperationException {
    Class<?> definer = new IsolatedLoader().define(DEFINER, classes[CLASSES.length]);
    inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.misc", Set.of(definer.getModule())),
        Map.of(), Set.of(), Map.of());
    Method defineMethod = definer.getMethod("define", String[].class, byte[][].class);
    defineMethod.invoke(null, CLASSES, Arrays.copyOf(classes, CLASSES.length));
  }

  /**
   * The fallback: a jar in the temporary folder ({@link TempJars}: deleted when the JVM exits, or by the next JVM that
   * writes one when this one was killed) on the bootstrap search path.
   */
  private static void appendJar(Instrumentation inst, byte[][] classes) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
    try (JarOutputStream out = new JarOutputStream(bytes)) {
      for (int i = 0; i < CLASSES.length; i++) {
        out.putNextEntry(new ZipEntry(CLASSES[i].replace('.', '/') + ".class"));
        out.write(classes[i]);
        out.closeEntry();
      }
    }
    Path jar = TempJars.write("bootstrap", new ByteArrayInputStream(bytes.toByteArray()));
    inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
  }

  /**
   * Reads class files from the agent jar itself (the code source of this class), which the system class
   * loader has open already. {@code getResourceAsStream} would do the same through the module system and a
   * {@code jar:} URL connection, loading some thirty JDK classes at start-up for four reads. {@link WeaverLoader} reads
   * its nested jar through it too.
   */
  static final class AgentJar implements AutoCloseable {
    private final JarFile jar;

    private AgentJar(JarFile jar) {
      this.jar = jar;
    }

    /**
     * The stored entry {@code name} of the agent jar, read where it lies each time a part of it is asked for (the jar stays
     * open; the system class loader has it open already, so the JVM shares its index); or, when the agent was not loaded
     * from its jar, the class loader's resource, in memory; {@code null} when there is neither.
     */
    static Bytes openEntry(String name) throws IOException {
      AgentJar agentJar = open();
      ZipEntry inJar = agentJar.jar == null ? null : agentJar.jar.getEntry(name);
      if (inJar != null && inJar.getMethod() == ZipEntry.STORED) {
        return new Bytes.InJar(agentJar.jar, inJar);
      }
      agentJar.close();
      InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(name);
      if (in == null) {
        return null;
      }
      try (in) {
        return new Bytes.InMemory(in.readAllBytes());
      }
    }

    /** The agent's jar; or, when this class was not loaded from a jar (the module's own tests), its class loader. */
    static AgentJar open() throws IOException {
      CodeSource source = BootstrapInjector.class.getProtectionDomain().getCodeSource();
      URL location = source == null ? null : source.getLocation();
      if (location == null || !"file".equals(location.getProtocol()) || !location.getPath().endsWith(".jar")) {
        return new AgentJar(null);
      }
      try {
        return new AgentJar(new JarFile(new File(location.toURI()), false));
      } catch (URISyntaxException | IllegalArgumentException notAFile) {
        return new AgentJar(null);
      }
    }

    /** The entry's content; the caller closes it. */
    InputStream entry(String name) throws IOException {
      return open(name, jar == null ? null : jar.getEntry(name));
    }

    /** {@code inJar}'s content, or (not from a jar) the class loader's resource {@code name}. */
    private InputStream open(String name, ZipEntry inJar) throws IOException {
      InputStream in = inJar != null ? jar.getInputStream(inJar) : BootstrapInjector.class.getClassLoader().getResourceAsStream(name);
      if (in == null) {
        throw new IOException(name + " is missing from the agent jar");
      }
      return in;
    }

    byte[] classFile(String className) throws IOException {
      String entry = className.replace('.', '/') + ".class";
      ZipEntry inJar = jar == null ? null : jar.getEntry(entry);
      try (InputStream in = open(entry, inJar)) {
        if (inJar == null || inJar.getSize() < 0) {
          return in.readAllBytes();
        }
        // one array of the entry's size: readAllBytes would fill 16 KB buffers and copy them, twice the garbage
        byte[] classFile = new byte[(int) inJar.getSize()];
        if (in.readNBytes(classFile, 0, classFile.length) != classFile.length || in.read() != -1) {
          throw new IOException(entry + " in the agent jar is not " + classFile.length + " bytes long");
        }
        return classFile;
      }
    }

    @Override
    public void close() throws IOException {
      if (jar != null) {
        jar.close();
      }
    }
  }

  /** Parts of a nested jar, read on demand. */
  abstract static class Bytes {
    abstract long size();

    abstract byte[] read(long offset, int length) throws IOException;

    /** A stored entry of a jar file: each read skips to its place (no inflating, so skipping reads nothing). */
    static final class InJar extends Bytes {
      private final JarFile jar;
      private final ZipEntry entry;

      InJar(JarFile jar, ZipEntry entry) {
        this.jar = jar;
        this.entry = entry;
      }

      @Override
      long size() {
        return entry.getSize();
      }

      @Override
      byte[] read(long offset, int length) throws IOException {
        try (InputStream in = jar.getInputStream(entry)) {
          in.skipNBytes(offset);
          byte[] bytes = new byte[length];
          if (in.readNBytes(bytes, 0, length) != length) {
            throw new IOException(entry.getName() + " ends before " + (offset + length));
          }
          return bytes;
        }
      }
    }

    /** A copy in memory (the agent's classes are not in its jar: this module's tests, or its plain jar on the class path). */
    static final class InMemory extends Bytes {
      private final byte[] bytes;

      InMemory(byte[] bytes) {
        this.bytes = bytes;
      }

      @Override
      long size() {
        return bytes.length;
      }

      @Override
      byte[] read(long offset, int length) throws IOException {
        if (offset < 0 || offset + length > bytes.length) {
          throw new IOException("no bytes " + offset + " to " + (offset + length) + " in " + bytes.length);
        }
        return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
      }
    }
  }

  private static boolean inBootstrap() {
    return inBootstrap(BRIDGE);
  }

  static boolean inBootstrap(String className) {
    try {
      Class.forName(className, false, null);
      return true;
    } catch (ClassNotFoundException notYet) {
      return false;
    }
  }

  /**
   * A class loader of its own for {@link BootstrapDefiner}: its unnamed module is the only one
   * {@code jdk.internal.misc} gets exported to. Its parent is the bootstrap loader, which is all the
   * definer needs.
   */
  private static final class IsolatedLoader extends ClassLoader {
    IsolatedLoader() {
      super("hfr-agent-bootstrap-definer", null);
    }

    Class<?> define(String name, byte[] classFile) {
      return defineClass(name, classFile, 0, classFile.length);
    }
  }
}
