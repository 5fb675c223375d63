package dev.hfr.agent;

import dev.hfr.agent.internal.BootstrapDefiner;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
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
 * without {@code jdk.internal.misc.Unsafe.defineClass}) are they copied into a small jar in the temporary
 * folder that is appended to the bootstrap search path: that works everywhere, but it costs a file and a
 * zip writer at start-up, and the JVM then stops using its class data sharing archive for every class
 * not loaded by the bootstrap loader ("Sharing is only supported for boot loader classes because
 * bootstrap classpath has been appended"), which slows down the application's own class loading.
 *
 * <p>Plain JDK API on purpose: this runs before anything else, and must not load Byte Buddy.
 */
final class BootstrapInjector {

  static final String BRIDGE = "dev.hfr.agent.internal.bootstrap.HfrBridge";
  /** The bridge's classes; the interface first, so that it is there when the class that uses it is defined. */
  private static final String[] CLASSES = {"dev.hfr.agent.internal.bootstrap.HttpCallHooks", BRIDGE, "dev.hfr.agent.internal.bootstrap.CallDepth"};
  private static final String DEFINER = "dev.hfr.agent.internal.BootstrapDefiner";

  private BootstrapInjector() {}

  /** Injects the bridge; false when an earlier start of the agent in this JVM injected it already. */
  static boolean inject(Instrumentation inst) throws IOException, ClassNotFoundException {
    if (inBootstrap()) {
      return false;
    }
    byte[][] classes = new byte[CLASSES.length][];
    for (int i = 0; i < CLASSES.length; i++) {
      classes[i] = classFile(CLASSES[i]);
    }
    try {
      defineDirectly(inst, classes);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError refused) {
      AgentLog.debug("cannot define the bridge directly (" + refused + "); appending a jar to the bootstrap search path");
      if (!inBootstrap()) {
        appendJar(inst, classes);
      }
    }
    if (!inBootstrap()) {
      throw new ClassNotFoundException(BRIDGE + " is not visible from the bootstrap class loader after injection");
    }
    return true;
  }

  private static void defineDirectly(Instrumentation inst, byte[][] classes) throws ReflectiveOperationException, IOException {
    Class<?> definer = new IsolatedLoader().define(DEFINER, classFile(DEFINER));
    inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.misc", Set.of(definer.getModule())),
        Map.of(), Set.of(), Map.of());
    definer.getMethod("define", String[].class, byte[][].class).invoke(null, CLASSES, classes);
  }

  /** The fallback: a jar in the temporary folder (deleted when the JVM exits) on the bootstrap search path. */
  private static void appendJar(Instrumentation inst, byte[][] classes) throws IOException {
    // a unique name without Files.createTempFile, whose SecureRandom costs start-up time
    File jar = new File(System.getProperty("java.io.tmpdir"), "hfr-agent-bootstrap-" + System.nanoTime() + ".jar");
    if (!jar.createNewFile()) {
      throw new IOException(jar + " exists already");
    }
    jar.deleteOnExit();
    try (JarOutputStream out = new JarOutputStream(new FileOutputStream(jar))) {
      for (int i = 0; i < CLASSES.length; i++) {
        out.putNextEntry(new ZipEntry(CLASSES[i].replace('.', '/') + ".class"));
        out.write(classes[i]);
        out.closeEntry();
      }
    }
    inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
  }

  private static byte[] classFile(String className) throws IOException {
    String entry = className.replace('.', '/') + ".class";
    try (InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IOException(entry + " is missing from the agent jar");
      }
      return in.readAllBytes();
    }
  }

  private static boolean inBootstrap() {
    try {
      Class.forName(BRIDGE, false, null);
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
