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

  @Override
  public int client() {
    return HfrBridge.HTTP_URL_CONNECTION;
  }

  @Override
  public List<String> classNames() {
    return List.of(API, JDK_IMPLEMENTATION);
  }

  @Override
  public List<MethodHook> hooks() {
    return List.of(new ResponseHook());
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
