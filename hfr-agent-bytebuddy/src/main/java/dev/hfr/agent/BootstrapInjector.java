package dev.hfr.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

/**
 * Puts the {@code dev.hfr.agent.bootstrap} classes into the bootstrap class loader, where the advice
 * inlined into {@code java.base} and {@code java.net.http} classes can see them: it copies them from the
 * agent jar into a small jar in the temporary folder (deleted when the JVM exits) and appends that to the
 * bootstrap search path. The system class loader asks its parents first, so from then on the agent's own
 * code gets the same bootstrap copies. (Plain JDK API on purpose: this runs before anything else, and
 * must not load Byte Buddy.)
 */
final class BootstrapInjector {

  static final String BRIDGE = "dev.hfr.agent.bootstrap.HfrBridge";
  private static final String[] CLASSES = {BRIDGE, "dev.hfr.agent.bootstrap.CallDepth", "dev.hfr.agent.bootstrap.HttpCallHooks"};

  private BootstrapInjector() {}

  /** Injects the bridge; false when an earlier start of the agent in this JVM injected it already. */
  static boolean inject(Instrumentation inst) throws IOException, ClassNotFoundException {
    if (inBootstrap()) {
      return false;
    }
    // a unique name without Files.createTempFile, whose SecureRandom costs start-up time
    File jar = new File(System.getProperty("java.io.tmpdir"),
        "hfr-agent-bootstrap-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".jar");
    jar.deleteOnExit();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar.toPath(), StandardOpenOption.CREATE_NEW))) {
      for (String name : CLASSES) {
        String entry = name.replace('.', '/') + ".class";
        out.putNextEntry(new ZipEntry(entry));
        copy(entry, out);
        out.closeEntry();
      }
    }
    inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
    if (!inBootstrap()) {
      throw new ClassNotFoundException(BRIDGE + " is not visible from the bootstrap class loader after injection");
    }
    return true;
  }

  private static void copy(String entry, OutputStream out) throws IOException {
    try (InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IOException(entry + " is missing from the agent jar");
      }
      in.transferTo(out);
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
}
