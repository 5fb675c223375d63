package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.weave.HookCode;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;

/**
 * {@code java.net.HttpURLConnection}: the response arrives in the first of {@code getResponseCode()}
 * (declared by {@code java.net.HttpURLConnection}) and {@code getInputStream()} (declared by the JDK's
 * {@code sun.net.www.protocol.http.HttpURLConnection}, which HTTPS connections delegate to). The two
 * call each other, so the depth guard records only the outermost, and the agent records each
 * connection once.
 */
public final class HttpUrlConnectionInstrumentation implements TypeInstrumentation {

  // constants: HttpClientInstrumentations lists them without loading this class
  static final String JDK_IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";
  static final String API = "java.net.HttpURLConnection";
  /** The JDK's URL handlers, whose {@code openConnection} creates every http and https connection. */
  static final String HTTP_HANDLER = "sun.net.www.protocol.http.Handler";
  static final String HTTPS_HANDLER = "sun.net.www.protocol.https.Handler";

  @Override
  public int client() {
    return HfrBridge.HTTP_URL_CONNECTION;
  }

  @Override
  public List<String> classNames() {
    return List.of(API, JDK_IMPLEMENTATION, HTTP_HANDLER, HTTPS_HANDLER);
  }

  @Override
  public List<MethodHook> hooks() {
    return List.of(new ResponseHook(), new OpeningHook());
  }

  /**
   * On entry to the URL handlers' {@code openConnection(URL, Proxy)} (their one-argument form calls it):
   * {@code HfrBridge.urlConnectionOpening()}, which, the first time, has the agent weave the connection classes
   * before the connection is created. The handlers are small and woven at start-up; the implementation is 66 KB
   * (docs/AGENT.md, "Start-up").
   */
  static final class OpeningHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return (owner.equals(HTTP_HANDLER.replace('.', '/')) || owner.equals(HTTPS_HANDLER.replace('.', '/')))
          && name.equals("openConnection") && descriptor.equals("(Ljava/net/URL;Ljava/net/Proxy;)Ljava/net/URLConnection;");
    }

    @Override
    public void enter(HookCode code) {
      code.callBridge("urlConnectionOpening", "()Ljava/lang/Object;");
    }

    @Override
    public void exit(HookCode code) {
      // nothing: the connection is recorded by ResponseHook
    }
  }

  /**
   * Around {@code java.net.HttpURLConnection.getResponseCode()} and the JDK implementation's
   * {@code getInputStream()}: {@code call = HfrBridge.urlConnectionEnter(this)}, then
   * {@code HfrBridge.urlConnectionExit(call, this, thrown)}.
   */
  static final class ResponseHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return owner.equals(API.replace('.', '/')) ? name.equals("getResponseCode") && descriptor.equals("()I")
          : owner.equals(JDK_IMPLEMENTATION.replace('.', '/')) && name.equals("getInputStream") && descriptor.startsWith("()");
    }

    @Override
    public void enter(HookCode code) {
      code.loadThis();
      code.callBridge("urlConnectionEnter", "(Ljava/lang/Object;)Ljava/lang/Object;");
    }

    @Override
    public void exit(HookCode code) {
      code.loadCall();
      code.loadThis();
      code.loadThrown();
      code.callBridge("urlConnectionExit", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)V");
    }
  }
}
