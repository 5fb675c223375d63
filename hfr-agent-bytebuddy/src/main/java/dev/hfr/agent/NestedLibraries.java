package dev.hfr.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;

/**
 * Micrometer, Prometheus's client and what they use (relocated, some 700 classes) are not entries of the agent
 * jar but of one jar nested in it, {@value #ENTRY}, which the build writes. The JVM indexes every entry of an
 * agent jar, in Java, when it opens it, before {@code premain}, in every JVM the agent is in; at ~1,450 entries
 * that indexing got hot enough to be JIT-compiled (docs/AGENT.md, "Sixth round"). Only the Prometheus endpoint
 * needs these libraries, so only a JVM that asks for it opens them: the nested jar is copied to a temporary file
 * (deleted at exit) and appended to the system class loader's search path, where the agent's classes are, so that
 * those that refer to Micrometer resolve it from there.
 *
 * <p>{@link #open()} must run before the first class that refers to these libraries is loaded (the JVM may load
 * a class's referents when it verifies it); {@code AgentJarIT} checks that only the classes that {@link Recording}
 * reaches after {@link #open()} refer to them.
 */
final class NestedLibraries {

  /** The nested jar's entry in the agent jar. */
  static final String ENTRY = "META-INF/hfr-agent/libraries.jar";

  private static Instrumentation instrumentation;
  private static boolean open;

  private NestedLibraries() {}

  /** Remembers the instrumentation that can append to the system class loader's search path. */
  static synchronized void use(Instrumentation inst) {
    instrumentation = inst;
  }

  /**
   * Makes the nested libraries loadable by the system class loader, once. Nothing happens when the agent jar has
   * no nested jar, or when the agent was not started by the JVM (its classes are then on the class path whole,
   * as in this module's unit tests).
   *
   * @throws UncheckedIOException when the nested jar cannot be copied out
   */
  static synchronized void open() {
    if (open || instrumentation == null) {
      return;
    }
    // the agent jar is on the system class loader's path, whichever loader defined this class (the module's thin
    // jar may be on the application's class path too, without the nested jar)
    URL nested = ClassLoader.getSystemResource(ENTRY);
    if (nested == null) {
      open = true;
      return;
    }
    long began = System.nanoTime();
    try {
      Path file = Files.createTempFile("hfr-agent-libraries-", ".jar");
      file.toFile().deleteOnExit();
      try (InputStream in = nested.openStream()) {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      }
      instrumentation.appendToSystemClassLoaderSearch(new JarFile(file.toFile()));
      open = true;
      AgentLog.debug("opened the nested libraries (" + file + ") in " + AgentLog.millisSince(began));
    } catch (IOException e) {
      throw new UncheckedIOException("could not open the agent's nested libraries " + nested, e);
    }
  }
}
