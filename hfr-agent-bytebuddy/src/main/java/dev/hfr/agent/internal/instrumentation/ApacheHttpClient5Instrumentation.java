package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.weave.HookCode;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;

/**
 * Apache HttpClient 5 classic: {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the two
 * clients the builders create ({@code InternalHttpClient}, {@code MinimalHttpClient}); every
 * {@code CloseableHttpClient.execute} overload, with or without a response handler, ends there.
 */
public final class ApacheHttpClient5Instrumentation implements TypeInstrumentation {

  // constants: HttpClientInstrumentations lists them without loading this class
  static final String INTERNAL_CLIENT = "org.apache.hc.client5.http.impl.classic.InternalHttpClient";
  static final String MINIMAL_CLIENT = "org.apache.hc.client5.http.impl.classic.MinimalHttpClient";
  private static final String REQUEST = "org/apache/hc/core5/http/ClassicHttpRequest";
  private static final String RESPONSE = "org/apache/hc/core5/http/HttpResponse";
  private static final String HEADER = "org/apache/hc/core5/http/Header";
  private static final String AUTHORITY = "org/apache/hc/core5/net/URIAuthority";
  private static final String STRING = "java/lang/String";
  private static final String OBJECT = "java/lang/Object";

  @Override
  public int client() {
    return HfrBridge.APACHE_HTTPCLIENT5;
  }

  @Override
  public List<String> classNames() {
    return List.of(INTERNAL_CLIENT, MINIMAL_CLIENT);
  }

  @Override
  public List<MethodHook> hooks() {
    return List.of(new ExecuteHook());
  }

  /**
   * Reads the method, host and key presence of the request, and the status and Retry-After of the response.
   * The code below is, in Java ({@code target} and {@code request} are the first two arguments):
   *
   * <pre>{@code
   * // enter
   * HfrBridge.libraryEnter(APACHE_HTTPCLIENT5, request.getMethod(),
   *     target != null ? target.getHostName() : request.getAuthority() != null ? request.getAuthority().getHostName() : null,
   *     request.containsHeader("Idempotency-Key"))
   * // exit
   * if (response == null) HfrBridge.libraryExit(APACHE_HTTPCLIENT5, call, 0, null, thrown);
   * else HfrBridge.libraryExit(APACHE_HTTPCLIENT5, call, response.getCode(),
   *     response.getFirstHeader("Retry-After") != null ? response.getFirstHeader("Retry-After").getValue() : null, thrown);
   * }</pre>
   */
  static final class ExecuteHook implements MethodHook {
    @Override
    public boolean matches(String owner, String name, String descriptor) {
      return name.equals("doExecute") && Descriptors.argumentCount(descriptor) == 3;
    }

    @Override
    public void enter(HookCode code) {
      code.push(HfrBridge.APACHE_HTTPCLIENT5);
      request(code);
      code.callInterface(REQUEST, "getMethod", "()Ljava/lang/String;");
      Label noTarget = code.label();
      Label noAuthority = code.label();
      Label host = code.label();
      code.loadArgument(0);
      code.ifNull(noTarget);
      code.loadArgument(0);
      code.cast("org/apache/hc/core5/http/HttpHost");
      code.callVirtual("org/apache/hc/core5/http/HttpHost", "getHostName", "()Ljava/lang/String;");
      code.jump(host);
      code.place(noTarget, Opcodes.INTEGER, STRING);
      request(code);
      code.callInterface(REQUEST, "getAuthority", "()Lorg/apache/hc/core5/net/URIAuthority;");
      code.dup();
      code.ifNull(noAuthority);
      code.callVirtual(AUTHORITY, "getHostName", "()Ljava/lang/String;");
      code.jump(host);
      code.place(noAuthority, Opcodes.INTEGER, STRING, AUTHORITY);
      code.pop();
      code.push((String) null);
      code.place(host, Opcodes.INTEGER, STRING, STRING);
      request(code);
      code.push("Idempotency-Key");
      code.callInterface(REQUEST, "containsHeader", "(Ljava/lang/String;)Z");
      code.callBridge("libraryEnter", "(ILjava/lang/String;Ljava/lang/String;Z)Ljava/lang/Object;");
    }

    private static void request(HookCode code) {
      code.loadArgument(1);
      code.cast(REQUEST);
    }

    @Override
    public void exit(HookCode code) {
      Label answered = code.label();
      Label noHeader = code.label();
      Label value = code.label();
      Label done = code.label();
      code.loadReturned();
      code.ifNonNull(answered);
      code.push(HfrBridge.APACHE_HTTPCLIENT5);
      code.loadCall();
      code.push(0);
      code.push((String) null);
      code.loadThrown();
      code.callBridge("libraryExit", "(ILjava/lang/Object;ILjava/lang/String;Ljava/lang/Throwable;)V");
      code.jump(done);
      code.place(answered);
      code.push(HfrBridge.APACHE_HTTPCLIENT5);
      code.loadCall();
      code.loadReturned();
      code.cast(RESPONSE);
      code.callInterface(RESPONSE, "getCode", "()I");
      code.loadReturned();
      code.cast(RESPONSE);
      code.push("Retry-After");
      code.callInterface(RESPONSE, "getFirstHeader", "(Ljava/lang/String;)Lorg/apache/hc/core5/http/Header;");
      code.dup();
      code.ifNull(noHeader);
      code.callInterface(HEADER, "getValue", "()Ljava/lang/String;");
      code.jump(value);
      code.place(noHeader, Opcodes.INTEGER, OBJECT, Opcodes.INTEGER, HEADER);
      code.pop();
      code.push((String) null);
      code.place(value, Opcodes.INTEGER, OBJECT, Opcodes.INTEGER, STRING);
      code.loadThrown();
      code.callBridge("libraryExit", "(ILjava/lang/Object;ILjava/lang/String;Ljava/lang/Throwable;)V");
      code.place(done);
    }
  }
}
