package dev.hfr.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * A jar nested in the agent jar, one entry instead of hundreds. The JVM indexes every entry of an agent jar, in Java,
 * when it opens it, before {@code premain}, in every JVM the agent is in; at ~1,450 entries that indexing got hot
 * enough to be JIT-compiled (docs/BENCHMARKS.md, "Java agent overhead"). The build writes two: {@link #LIBRARIES}, Micrometer,
 * Prometheus's client and what they use (relocated, some 700 classes), which only the Prometheus endpoint needs; and
 * the weaver's, which {@link WeaverLoader} reads in memory.
 *
 * <p>{@link #open()} makes a nested jar's classes loadable by the system class loader, where the agent's classes are:
 * it copies it to a temporary file ({@link TempJars}: deleted at exit, or by the next JVM that writes one when this one
 * was killed) and appends that to the loader's search path, so that the
 * agent's classes that refer to them resolve them from there. It must run before the first class that refers to
 * them is loaded (the JVM may load a class's referents when it verifies it); {@code AgentJarIT} checks which of the
 * agent's classes refer to the libraries.
 */
final class NestedJar {

  /** Micrometer and Prometheus's client, opened by {@link Recording} for the Prometheus endpoint. */
  static final NestedJar LIBRARIES = new NestedJar("META-INF/hfr-agent/libraries.jar");

  private static Instrumentation instrumentation;

  private final String entry;
  private boolean open;

  private NestedJar(String entry) {
    this.entry = entry;
  }

  /** Remembers the instrumentation that can append to the system class loader's search path. */
  static synchronized void use(Instrumentation inst) {
    instrumentation = inst;
  }

  /** The nested jar's entry in the agent jar. */
  String entry() {
    return entry;
  }

  /** What the copy's name says it holds: the entry's file name without {@code .jar} ({@code libraries}). */
  private String kind() {
    return entry.substring(entry.lastIndexOf('/') + 1, entry.length() - ".jar".length());
  }

  /**
   * Makes the nested jar's classes loadable by the system class loader, once. Nothing happens when the agent jar has
   * no such entry, or when the agent was not started by the JVM (its classes are then on the class path whole, as in
   * this module's unit tests).
   *
   * @throws UncheckedIOException when the nested jar cannot be copied out
   */
  void open() {
    synchronized (NestedJar.class) {
      if (open || instrumentation == null) {
        return;
      }
      // the agent jar is on the system class loader's path, whichever loader defined this class (the module's plain
      // jar may be on the application's class path too, without the nested jars)
      URL nested = ClassLoader.getSystemResource(entry);
      if (nested == null) {
        open = true;
        return;
      }
      long began = System.nanoTime();
      try {
        Path file;
        try (InputStream in = nested.openStream()) {
          file = TempJars.write(kind(), in);
        }
        instrumentation.appendToSystemClassLoaderSearch(new JarFile(file.toFile()));
        open = true;
        AgentLog.debug("opened " + entry + " (" + file + ") in " + AgentLog.millisSince(began));
      } catch (IOException e) {
        throw new UncheckedIOException("could not open the agent's nested jar " + nested, e);
      }
    }
  }
}
