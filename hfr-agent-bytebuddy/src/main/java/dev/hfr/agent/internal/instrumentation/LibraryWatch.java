package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions.Watch;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the agent's transformer watches for the libraries' clients (OkHttp, Apache HttpClient 5) when their classes
 * load, and so stays registered once the JDK's clients are woven. The JVM calls a registered transformer for every
 * class it loads, with a copy of the class file (read back from the runtime image for the JDK's shared classes). The
 * JDK's clients come from the JDK's loaders and are all woven sooner or later; the libraries can come from any class
 * loader, at any time, so under {@code watch=auto} the agent watches when it can see that one of them may appear.
 */
public final class LibraryWatch {

  /** The launchers of Spring Boot's executable jars, whose nested jars the system class loader cannot see into. */
  static final List<String> NESTED_JAR_LAUNCHERS =
      List.of("org/springframework/boot/loader/launch/JarLauncher.class", "org/springframework/boot/loader/JarLauncher.class");

  private final boolean watching;
  private final String reason;

  private LibraryWatch(boolean watching, String reason) {
    this.watching = watching;
    this.reason = reason;
  }

  /**
   * Decides for the enabled library clients.
   *
   * @param libraryClients the bridge slots of the library clients that are switched on (none: nothing to watch)
   * @param attach whether the agent is attaching to a running JVM, whose start-up is over
   * @param classPath the class path's jars and folders ({@link #classPath(String)}): only its resources are looked up,
   *     no class is loaded
   */
  public static LibraryWatch decide(Watch watch, List<Integer> libraryClients, boolean attach, URLClassLoader classPath) {
    if (libraryClients.isEmpty()) {
      return new LibraryWatch(false, "");
    }
    // ifs, not a switch: a switch on another class's enum costs a synthetic class at start-up
    if (watch == Watch.ALL) {
      return new LibraryWatch(true, "watch=all");
    }
    if (watch == Watch.JDK) {
      return new LibraryWatch(false, "watch=jdk");
    }
    if (attach) {
      return new LibraryWatch(true, "attached to a running JVM, which loads few classes from now on");
    }
    StringBuilder found = new StringBuilder();
    for (int client : libraryClients) {
      for (String name : HttpClientInstrumentations.classNames(client)) {
        if (classPath.findResource(name.replace('.', '/') + ".class") != null) {
          found.append(found.length() == 0 ? "" : ", ").append(HfrBridge.clientName(client));
          break;
        }
      }
    }
    if (found.length() > 0) {
      return new LibraryWatch(true, found + " on the class path");
    }
    for (String launcher : NESTED_JAR_LAUNCHERS) {
      if (classPath.findResource(launcher) != null) {
        return new LibraryWatch(true, "Spring Boot's nested-jar launcher on the class path");
      }
    }
    return new LibraryWatch(false, "not on the class path; set watch=all if a custom class loader loads them later");
  }

  /**
   * A loader over the entries of a class path ({@code java.class.path}), with no parent. Its {@code findResource}
   * looks in those jars and folders only: the system class loader's {@code getResource} would first search every
   * module of the runtime image, which cost more than the rest of the agent's start (docs/BENCHMARKS.md, "Java agent overhead").
   * It is not closed: the jars it opened stay shared with the system class loader, which opens the same ones.
   */
  public static URLClassLoader classPath(String javaClassPath) {
    List<URL> entries = new ArrayList<>();
    for (String entry : javaClassPath.split(File.pathSeparator, -1)) {
      try {
        entries.add(new File(entry.isEmpty() ? "." : entry).toURI().toURL());
      } catch (MalformedURLException unusable) {
        // an entry the system class loader cannot use either
      }
    }
    return new URLClassLoader(entries.toArray(new URL[0]), null);
  }

  /** Whether the transformer stays registered for the libraries' classes that load later. */
  public boolean watching() {
    return watching;
  }

  /** Why, in a few words, for the agent's start line. */
  public String reason() {
    return reason;
  }
}
