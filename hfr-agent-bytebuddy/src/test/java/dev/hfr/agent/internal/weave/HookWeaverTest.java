package dev.hfr.agent.internal.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.bootstrap.HttpCallHooks;
import dev.hfr.agent.internal.instrumentation.JdkHttpClientInstrumentation;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The weaver on real bytecode: hooks woven into {@link WeavingSubject}, the class defined (and verified)
 * in a class loader of its own, its methods run, and what reached the bridge checked.
 */
@DisplayName("HookWeaver")
class HookWeaverTest {

  /** What the bridge was told, in order. */
  static final List<String> SEEN = Collections.synchronizedList(new ArrayList<>());
  /** How many more times {@code jdkFinish} asks for a repeat. */
  static final AtomicInteger REPEATS = new AtomicInteger();

  static final HttpRequest REQUEST = HttpRequest.newBuilder(URI.create("http://127.0.0.1:8123/x")).build();

  @BeforeAll
  static void connectTheBridge() {
    HfrBridge.install(new RecordingHooks());
  }

  @BeforeEach
  void clear() {
    SEEN.clear();
    REPEATS.set(0);
  }

  @Test
  @DisplayName("around a method with a loop, a handler and wide locals: enter, then exit with what it returned")
  void returns() throws Throwable {
    Object subject = woven(new JdkHttpClientInstrumentation().hooks());
    assertThat(call(subject, "send", REQUEST, "ok")).isEqualTo("GET 3 1.5 1");
    assertThat(SEEN).containsExactly("start GET", "finish GET returned=GET 3 1.5 1 thrown=null");
  }

  @Test
  @DisplayName("its own handler still catches first; what escapes reaches exit and then the caller unchanged")
  void throwsThrough() throws Throwable {
    Object subject = woven(new JdkHttpClientInstrumentation().hooks());
    assertThatThrownBy(() -> call(subject, "send", REQUEST, "io")).isInstanceOf(UncheckedIOException.class).hasMessageContaining("refused");
    assertThatThrownBy(() -> call(subject, "send", REQUEST, "checked")).isExactlyInstanceOf(Exception.class).hasMessage("checked");
    assertThat(SEEN).containsExactly(
        "start GET", "finish GET returned=null thrown=java.io.UncheckedIOException",
        "start GET", "finish GET returned=null thrown=java.lang.Exception");
  }

  @Test
  @DisplayName("an exit that answers true runs the body again, and the caller gets the last outcome")
  void repeats() throws Throwable {
    Object subject = woven(new JdkHttpClientInstrumentation().hooks());
    REPEATS.set(2);
    assertThat(call(subject, "send", REQUEST, "ok")).isEqualTo("GET 3 1.5 3");
    assertThat(SEEN).containsExactly("start GET",
        "finish GET returned=GET 3 1.5 1 thrown=null", "finish GET returned=GET 3 1.5 2 thrown=null",
        "finish GET returned=GET 3 1.5 3 thrown=null");
  }

  @Test
  @DisplayName("a primitive return and a static method with a wide argument keep their values")
  void primitivesAndStatics() throws Throwable {
    Object subject = woven(List.of(new AsyncLikeHook("status", false), new AsyncLikeHook("elapsed", true)));
    assertThat(call(subject, "status", REQUEST, 7)).isEqualTo(7);
    assertThatThrownBy(() -> call(subject, "status", REQUEST, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(call(subject, "elapsed", 10L, REQUEST)).isEqualTo(8133L);
    assertThat(SEEN).containsExactly("start GET", "async returned=null thrown=null",
        "start GET", "async returned=null thrown=java.lang.IllegalArgumentException",
        "start GET", "async returned=null thrown=null");
  }

  @Test
  @DisplayName("a hook that throws is dropped where it throws: the method runs as if there were no hook")
  void failingHooksAreSuppressed() throws Throwable {
    Object subject = woven(List.of(new MethodHook() {
      @Override
      public boolean matches(String owner, String name, String descriptor) {
        return name.equals("send");
      }

      @Override
      public void enter(HookCode code) {
        code.loadArgument(0);
        code.cast("java/lang/Runnable"); // a ClassCastException in the application's method
      }

      @Override
      public void exit(HookCode code) {
        code.loadThis();
        code.cast("java/lang/Runnable");
        code.pop();
      }
    }));
    assertThat(call(subject, "send", REQUEST, "ok")).isEqualTo("GET 3 1.5 1");
    assertThatThrownBy(() -> call(subject, "send", REQUEST, "checked")).hasMessage("checked");
  }

  @Test
  @DisplayName("an exit that writes nothing (the URL handlers' hook) still makes a valid class")
  void emptyExit() throws Throwable {
    Object subject = woven(List.of(new MethodHook() {
      @Override
      public boolean matches(String owner, String name, String descriptor) {
        return name.equals("send");
      }

      @Override
      public void enter(HookCode code) {
        code.callBridge("urlConnectionOpening", "()Ljava/lang/Object;");
      }

      @Override
      public void exit(HookCode code) {
        // nothing
      }
    }));
    HfrBridge.beforeFirstUrlConnection(() -> SEEN.add("opening"));
    try {
      assertThat(call(subject, "send", REQUEST, "ok")).isEqualTo("GET 3 1.5 1");
      assertThatThrownBy(() -> call(subject, "send", REQUEST, "checked")).hasMessage("checked");
    } finally {
      HfrBridge.beforeFirstUrlConnection(null);
    }
    assertThat(SEEN).containsExactly("opening", "opening");
  }

  @Test
  @DisplayName("adds no field or method, so an already loaded class can be retransformed; unmatched classes are left alone")
  void keepsTheClassFormat() throws Exception {
    byte[] original = bytes();
    byte[] woven = HookWeaver.weave(original, new JdkHttpClientInstrumentation().hooks());
    assertThat(members(woven)).isEqualTo(members(original));
    assertThat(HookWeaver.weave(original, List.of(new AsyncLikeHook("noSuchMethod", false)))).isNull();
  }

  // ----

  /** {@code jdkEnter(request)} on entry, {@code jdkAsyncExit(call, null, thrown)} on exit, for any return type. */
  private record AsyncLikeHook(String method, boolean requestSecond) implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return name.equals(method);
    }

    @Override
    public void enter(HookCode code) {
      code.loadArgument(requestSecond ? 1 : 0);
      code.callBridge("jdkEnter", "(Ljava/lang/Object;)Ljava/lang/Object;");
    }

    @Override
    public void exit(HookCode code) {
      code.loadCall();
      code.push((String) null);
      code.loadThrown();
      code.callBridge("jdkAsyncExit", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)V");
    }
  }

  private static final class RecordingHooks implements HttpCallHooks {
    @Override
    public Object jdkStart(Object request) {
      SEEN.add("start " + ((HttpRequest) request).method());
      return "GET";
    }

    @Override
    public boolean jdkFinish(Object call, Object response, Throwable thrown) {
      SEEN.add("finish " + call + " returned=" + response + " thrown=" + (thrown == null ? null : thrown.getClass().getName()));
      return REPEATS.getAndDecrement() > 0;
    }

    @Override
    public void jdkFinishAsync(Object call, Object future, Throwable thrown) {
      SEEN.add("async returned=" + future + " thrown=" + (thrown == null ? null : thrown.getClass().getName()));
    }

    @Override
    public Object urlConnectionStart(Object connection) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void urlConnectionFinish(Object call, Object connection, Throwable thrown) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object libraryStart(int client, String method, String host, boolean idempotencyKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void libraryFinish(Object call, int status, String retryAfter, Throwable thrown) {
      throw new UnsupportedOperationException();
    }
  }

  private static byte[] bytes() throws Exception {
    try (InputStream in = WeavingSubject.class.getResourceAsStream("WeavingSubject.class")) {
      return in.readAllBytes();
    }
  }

  /** A new instance of the woven class, defined (and so verified) by a loader of its own. */
  private static Object woven(List<MethodHook> hooks) throws Exception {
    byte[] woven = HookWeaver.weave(bytes(), hooks);
    assertThat(woven).as("some method matched").isNotNull();
    ClassLoader loader = new ClassLoader(HookWeaverTest.class.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.equals(WeavingSubject.class.getName())) {
          synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            return c != null ? c : defineClass(name, woven, 0, woven.length);
          }
        }
        return super.loadClass(name, resolve);
      }
    };
    return loader.loadClass(WeavingSubject.class.getName()).getConstructor().newInstance();
  }

  private static Object call(Object subject, String name, Object... args) throws Throwable {
    for (Method m : subject.getClass().getMethods()) {
      if (m.getName().equals(name)) {
        try {
          return m.invoke(subject, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new AssertionError("no method " + name);
  }

  private static List<String> members(byte[] classFile) {
    List<String> members = new ArrayList<>();
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        members.add("field " + access + " " + name + descriptor);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        members.add("method " + access + " " + name + descriptor);
        return null;
      }
    }, ClassReader.SKIP_CODE);
    return members;
  }
}
