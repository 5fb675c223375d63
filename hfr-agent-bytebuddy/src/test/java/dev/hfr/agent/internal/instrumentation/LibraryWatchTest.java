package dev.hfr.agent.internal.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.config.AgentOptions.Watch;
import java.io.IOException;
import java.io.File;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the agent keeps watching class loading for the libraries' clients; the class paths here are real directories. */
class LibraryWatchTest {

  private static final List<Integer> LIBRARIES = List.of(HfrBridge.OKHTTP, HfrBridge.APACHE_HTTPCLIENT5);

  @TempDir
  Path dir;

  @Test
  @DisplayName("auto: an empty class path is not watched, and the reason names watch=all")
  void autoWithNothingOnTheClassPath() throws IOException {
    LibraryWatch w = LibraryWatch.decide(Watch.AUTO, LIBRARIES, false, classPath());
    assertThat(w.watching()).isFalse();
    assertThat(w.reason()).contains("not on the class path", "watch=all");
  }

  @Test
  @DisplayName("auto: a library class on the class path (seen as a resource, not loaded) is watched, and named")
  void autoWithALibrary() throws IOException {
    LibraryWatch w = LibraryWatch.decide(Watch.AUTO, LIBRARIES, false,
        classPath("org/apache/hc/client5/http/impl/classic/MinimalHttpClient.class"));
    assertThat(w.watching()).isTrue();
    assertThat(w.reason()).isEqualTo("apache-httpclient5 on the class path");
  }

  @Test
  @DisplayName("auto: a switched-off library on the class path does not count")
  void autoIgnoresSwitchedOffClients() throws IOException {
    LibraryWatch w = LibraryWatch.decide(Watch.AUTO, List.of(HfrBridge.APACHE_HTTPCLIENT5), false,
        classPath("okhttp3/internal/http/RetryAndFollowUpInterceptor.class"));
    assertThat(w.watching()).isFalse();
  }

  @Test
  @DisplayName("auto: Spring Boot's nested-jar launcher (old and new package) is watched: the libraries hide in nested jars")
  void autoWithSpringBootLauncher() throws IOException {
    for (String launcher : LibraryWatch.NESTED_JAR_LAUNCHERS) {
      LibraryWatch w = LibraryWatch.decide(Watch.AUTO, LIBRARIES, false, classPath(launcher));
      assertThat(w.watching()).as(launcher).isTrue();
      assertThat(w.reason()).contains("nested-jar launcher");
    }
  }

  @Test
  @DisplayName("auto on attach: watched, whatever the class path")
  void autoOnAttach() throws IOException {
    assertThat(LibraryWatch.decide(Watch.AUTO, LIBRARIES, true, classPath()).watching()).isTrue();
  }

  @Test
  @DisplayName("all watches and jdk does not, whatever the class path")
  void allAndJdk() throws IOException {
    LibraryWatch all = LibraryWatch.decide(Watch.ALL, LIBRARIES, false, classPath());
    assertThat(all.watching()).isTrue();
    assertThat(all.reason()).isEqualTo("watch=all");
    LibraryWatch jdk = LibraryWatch.decide(Watch.JDK, LIBRARIES, true, classPath("okhttp3/internal/http/RetryAndFollowUpInterceptor.class"));
    assertThat(jdk.watching()).isFalse();
    assertThat(jdk.reason()).isEqualTo("watch=jdk");
  }

  @Test
  @DisplayName("no library client switched on: nothing to watch")
  void noLibraryClient() throws IOException {
    assertThat(LibraryWatch.decide(Watch.ALL, List.of(), false, classPath()).watching()).isFalse();
  }

  /** A class loader over a directory holding (empty) files at {@code resources}, with no parent's classes. */
  private URLClassLoader classPath(String... resources) throws IOException {
    for (String r : resources) {
      Path file = dir.resolve(r);
      Files.createDirectories(file.getParent());
      Files.write(file, new byte[0]);
    }
    return LibraryWatch.classPath(dir.toString());
  }

  @Test
  @DisplayName("the class path is read from java.class.path's form: jars and folders, an empty entry is the working directory")
  void classPathEntries() throws IOException {
    Path jar = dir.resolve("client.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("okhttp3/internal/http/RetryAndFollowUpInterceptor.class"));
      out.closeEntry();
    }
    try (URLClassLoader cp = LibraryWatch.classPath(dir.resolve("missing") + File.pathSeparator + jar)) {
      assertThat(cp.getURLs()).hasSize(2);
      assertThat(LibraryWatch.decide(Watch.AUTO, LIBRARIES, false, cp).reason()).isEqualTo("okhttp on the class path");
    }
    try (URLClassLoader cp = LibraryWatch.classPath("")) {
      assertThat(cp.getURLs()).singleElement().asString().endsWith("/");
    }
  }
}
