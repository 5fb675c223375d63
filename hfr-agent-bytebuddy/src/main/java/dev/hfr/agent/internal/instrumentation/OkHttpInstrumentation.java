package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.weave.HookCode;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;

/**
 * OkHttp 4 and 5: {@code okhttp3.internal.connection.RealCall.getResponseWithInterceptorChain}, which
 * both {@code execute()} and {@code enqueue()} (on the dispatcher thread) run once per call, after the
 * application's interceptors have had the request. Nothing is added to the application's client, so
 * {@code OkHttpClient.interceptors()} is unchanged.
 */
public final class OkHttpInstrumentation implements TypeInstrumentation {

  /** The instrumented class (a constant: {@link HttpClientInstrumentations} lists it without loading this class). */
  static final String REAL_CALL = "okhttp3.internal.connection.RealCall";
  private static final String CALL = "okhttp3/Call";
  private static final String REQUEST = "okhttp3/Request";
  private static final String RESPONSE = "okhttp3/Response";
  private static final String HEADERS = "okhttp3/Headers";
  private static final String STRING = "java/lang/String";

  @Override
  public int client() {
    return HfrBridge.OKHTTP;
  }

  @Override
  public List<String> classNames() {
    return List.of(REAL_CALL);
  }

  @Override
  public List<MethodHook> hooks() {
    return List.of(new CallHook());
  }

  /**
   * Reads the method, host and key presence of the request, and the status and Retry-After of the response.
   * The code below is, in Java:
   *
   * <pre>{@code
   * // enter
   * HfrBridge.libraryEnter(OKHTTP, ((Call) this).request().method(), ((Call) this).request().url().host(),
   *     ((Call) this).request().headers().get("Idempotency-Key") != null)
   * // exit
   * if (response == null) HfrBridge.libraryExit(OKHTTP, call, 0, null, thrown);
   * else HfrBridge.libraryExit(OKHTTP, call, response.code(), response.headers().get("Retry-After"), thrown);
   * }</pre>
   */
  static final class CallHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      // Kotlin mangles the internal function's name: getResponseWithInterceptorChain$okhttp
      return name.startsWith("getResponseWithInterceptorChain") && descriptor.startsWith("()");
    }

    @Override
    public void enter(HookCode code) {
      code.push(HfrBridge.OKHTTP);
      request(code);
      code.callVirtual(REQUEST, "method", "()Ljava/lang/String;");
      request(code);
      code.callVirtual(REQUEST, "url", "()Lokhttp3/HttpUrl;");
      code.callVirtual("okhttp3/HttpUrl", "host", "()Ljava/lang/String;");
      request(code);
      code.callVirtual(REQUEST, "headers", "()Lokhttp3/Headers;");
      code.push("Idempotency-Key");
      code.callVirtual(HEADERS, "get", "(Ljava/lang/String;)Ljava/lang/String;");
      Label keyed = code.label();
      Label known = code.label();
      code.ifNonNull(keyed);
      code.push(0);
      code.jump(known);
      code.place(keyed, Opcodes.INTEGER, STRING, STRING);
      code.push(1);
      code.place(known, Opcodes.INTEGER, STRING, STRING, Opcodes.INTEGER);
      code.callBridge("libraryEnter", "(ILjava/lang/String;Ljava/lang/String;Z)Ljava/lang/Object;");
    }

    private static void request(HookCode code) {
      code.loadThis();
      code.cast(CALL);
      code.callInterface(CALL, "request", "()Lokhttp3/Request;");
    }

    @Override
    public void exit(HookCode code) {
      Label answered = code.label();
      Label done = code.label();
      code.loadReturned();
      code.ifNonNull(answered);
      code.push(HfrBridge.OKHTTP);
      code.loadCall();
      code.push(0);
      code.push((String) null);
      code.loadThrown();
      code.callBridge("libraryExit", "(ILjava/lang/Object;ILjava/lang/String;Ljava/lang/Throwable;)V");
      code.jump(done);
      code.place(answered);
      code.push(HfrBridge.OKHTTP);
      code.loadCall();
      code.loadReturned();
      code.cast(RESPONSE);
      code.callVirtual(RESPONSE, "code", "()I");
      code.loadReturned();
      code.cast(RESPONSE);
      code.callVirtual(RESPONSE, "headers", "()Lokhttp3/Headers;");
      code.push("Retry-After");
      code.callVirtual(HEADERS, "get", "(Ljava/lang/String;)Ljava/lang/String;");
      code.loadThrown();
      code.callBridge("libraryExit", "(ILjava/lang/Object;ILjava/lang/String;Ljava/lang/Throwable;)V");
      code.place(done);
    }
  }
}
