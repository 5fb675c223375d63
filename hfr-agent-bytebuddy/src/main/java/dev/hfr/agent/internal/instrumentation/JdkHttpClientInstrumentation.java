package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.weave.HookCode;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;

/**
 * {@code java.net.http.HttpClient}: every client the JDK builds ({@code HttpClient.newHttpClient()},
 * {@code HttpClient.newBuilder().build()}) is a {@code jdk.internal.net.http.HttpClientFacade}, whose
 * {@code send} and {@code sendAsync} hand the call to {@code HttpClientImpl}. The facade is what is woven:
 * 5 KB instead of the implementation's 26 KB (36 KB on JDK 25), and weaving runs on the first request of
 * every JVM, in the interpreter (docs/AGENT.md, "Start-up"). {@code send} is recorded when it returns or
 * throws, and may be repeated there under enforcement; every {@code sendAsync} overload is recorded when
 * its future completes.
 */
public final class JdkHttpClientInstrumentation implements TypeInstrumentation {

  /** The instrumented class (a constant: {@link HttpClientInstrumentations} lists it without loading this class). */
  static final String CLIENT_FACADE = "jdk.internal.net.http.HttpClientFacade";
  /** The facade's superclass. */
  static final String CLIENT_API = "java.net.http.HttpClient";
  private static final String HTTP_REQUEST = "Ljava/net/http/HttpRequest;";

  @Override
  public int client() {
    return HfrBridge.JDK_HTTP_CLIENT;
  }

  @Override
  public List<String> classNames() {
    return List.of(CLIENT_FACADE);
  }

  @Override
  public List<MethodHook> hooks() {
    return List.of(new SendHook(), new SendAsyncHook());
  }

  /**
   * Around {@code send(HttpRequest, BodyHandler)}: {@code call = HfrBridge.jdkEnter(request)}, then
   * {@code repeat = HfrBridge.jdkSendExit(call, response, thrown)}; true sends the request again (an enforced retry).
   */
  static final class SendHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return name.equals("send") && Descriptors.argumentCount(descriptor) == 2 && descriptor.startsWith("(" + HTTP_REQUEST);
    }

    @Override
    public void enter(HookCode code) {
      code.loadArgument(0);
      code.callBridge("jdkEnter", "(Ljava/lang/Object;)Ljava/lang/Object;");
    }

    @Override
    public void exit(HookCode code) {
      code.loadCall();
      code.loadReturned();
      code.loadThrown();
      code.callBridge("jdkSendExit", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)Z");
    }

    @Override
    public boolean repeats() {
      return true;
    }
  }

  /**
   * Around every {@code sendAsync(HttpRequest, ...)}: {@code call = HfrBridge.jdkEnter(request)}, then
   * {@code HfrBridge.jdkAsyncExit(call, future, thrown)}, which observes the future and never replaces it.
   */
  static final class SendAsyncHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return name.equals("sendAsync") && descriptor.startsWith("(" + HTTP_REQUEST);
    }

    @Override
    public void enter(HookCode code) {
      code.loadArgument(0);
      code.callBridge("jdkEnter", "(Ljava/lang/Object;)Ljava/lang/Object;");
    }

    @Override
    public void exit(HookCode code) {
      code.loadCall();
      code.loadReturned();
      code.loadThrown();
      code.callBridge("jdkAsyncExit", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)V");
    }
  }
}
