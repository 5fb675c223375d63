package dev.hfr.agent.internal.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The weaver on the real class files of the JDK and of the client libraries this build tests with: every class the
 * agent names is woven by its client's advice, and a woven library class passes the JVM's verifier. The forked-JVM
 * tests ({@code *IT}) run the woven classes.
 */
@DisplayName("the Byte Buddy weaver")
class AdviceWeavingTest {

  private final AdviceWeaving weaving = new AdviceWeaving();

  @Test
  @DisplayName("weaves every class each client names, from its class file: the advice finds its methods in each")
  void everyInstrumentedClassIsWoven() throws Exception {
    for (int client = 0; client < HfrBridge.CLIENTS; client++) {
      for (String name : HttpClientInstrumentations.classNames(client)) {
        byte[] original = classFile(name);
        byte[] woven = weaving.weave(loaderOf(client), name.replace('.', '/'), client, original);
        assertThat(woven).as("%s woven by the advice of %s", name, HfrBridge.clientName(client)).isNotNull();
        assertThat(woven.length).as(name).isGreaterThan(original.length);
      }
    }
  }

  @Test
  @DisplayName("leaves a class alone that has none of its client's methods")
  void classWithoutAdvisedMethodsIsLeftAlone() throws Exception {
    assertThat(weaving.weave(null, "java/net/http/HttpClient", HfrBridge.OKHTTP, classFile("java.net.http.HttpClient"))).isNull();
  }

  @Test
  @DisplayName("the woven OkHttp and Apache HttpClient classes (classic and async) pass the verifier and initialise")
  void wovenLibraryClassesVerify() throws Exception {
    for (var woven : List.of(
        new Woven(HttpClientInstrumentations.OKHTTP_RETRY_INTERCEPTOR, HfrBridge.OKHTTP),
        new Woven(HttpClientInstrumentations.APACHE_INTERNAL_CLIENT, HfrBridge.APACHE_HTTPCLIENT5),
        new Woven(HttpClientInstrumentations.APACHE_ASYNC_CLIENT, HfrBridge.APACHE_HTTPCLIENT5),
        new Woven(HttpClientInstrumentations.APACHE_MINIMAL_ASYNC_CLIENT, HfrBridge.APACHE_HTTPCLIENT5))) {
      byte[] bytes = weaving.weave(loaderOf(woven.client), woven.name.replace('.', '/'), woven.client, classFile(woven.name));
      Class<?> c = Class.forName(woven.name, true, new OneClassLoader(woven.name, bytes));
      assertThat(c.getClassLoader()).isInstanceOf(OneClassLoader.class);
    }
  }

  private record Woven(String name, int client) {}

  /** The loader the JVM would hand the transformer: the JDK's (here the bootstrap's) or the application's. */
  private static ClassLoader loaderOf(int client) {
    return HttpClientInstrumentations.inJdk(client) ? null : AdviceWeavingTest.class.getClassLoader();
  }

  private static byte[] classFile(String name) throws IOException {
    try (InputStream in = ClassLoader.getSystemResourceAsStream(name.replace('.', '/') + ".class")) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  /**
   * Defines one class from the given bytes, the other classes of its package from their class files (a package-private
   * superclass must be in the same loader) and everything else from the test's class loader.
   */
  private static final class OneClassLoader extends ClassLoader {
    private final String name;
    private final byte[] bytes;

    OneClassLoader(String name, byte[] bytes) {
      super(AdviceWeavingTest.class.getClassLoader());
      this.name = name;
      this.bytes = bytes;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      if (!className.substring(0, className.lastIndexOf('.')).equals(name.substring(0, name.lastIndexOf('.')))) {
        return super.loadClass(className, resolve);
      }
      synchronized (getClassLoadingLock(className)) {
        Class<?> c = findLoadedClass(className);
        if (c != null) {
          return c;
        }
        if (className.equals(name)) {
          return defineClass(className, bytes, 0, bytes.length);
        }
        try {
          byte[] original = classFile(className);
          return defineClass(className, original, 0, original.length);
        } catch (IOException | AssertionError e) {
          throw new ClassNotFoundException(className, e);
        }
      }
    }
  }
}
