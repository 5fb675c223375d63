package dev.hfr.langchain4j.internal;

import dev.hfr.runtime.internal.http.FailedResponseListener;
import dev.hfr.runtime.internal.http.ObservedHttpClients;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Remembers the headers of the failed (status 400 and above) responses a {@code java.net.http} client
 * received, for the thread that sent the request. LangChain4j's JDK client turns such a response into an
 * exception that carries only status and body. A synchronous {@code send} leaves them for its thread to pick
 * up right after ({@link #lastErrorHeaders()}); a streaming call is sent with {@code sendAsync} and answered on
 * another thread: for it, the caller names a target before sending ({@link #captureAsyncInto}), and the headers
 * of a failed response are handed to that target before LangChain4j's client sees the response. The client
 * itself is the runtime's {@link ObservedHttpClients} (shared with hfr-mcp).
 */
public final class ResponseHeaderCapture {

  /** The last synchronous request's slot on each thread, filled if its response failed. */
  private final ThreadLocal<AtomicReference<Map<String, String>>> lastErrorHeaders = new ThreadLocal<>();
  private final ThreadLocal<Consumer<Map<String, String>>> asyncTarget = new ThreadLocal<>();
  private final HttpClient.Builder builder;

  public ResponseHeaderCapture(HttpClient.Builder delegate) {
    this.builder = ObservedHttpClients.builder(delegate, new Listener());
  }

  /** The {@code java.net.http} builder to give LangChain4j's JDK client builder. */
  public HttpClient.Builder builder() {
    return builder;
  }

  /** The headers of the last failed response on this thread (empty when none). */
  public Map<String, String> lastErrorHeaders() {
    AtomicReference<Map<String, String>> slot = lastErrorHeaders.get();
    Map<String, String> h = slot == null ? null : slot.get();
    return h == null ? Map.of() : h;
  }

  public void clear() {
    lastErrorHeaders.remove();
  }

  /**
   * Until {@link #clearAsync()}, an asynchronous send started on this thread hands the headers of a failed
   * response to {@code target} (on the thread the response arrives on).
   */
  public void captureAsyncInto(Consumer<Map<String, String>> target) {
    asyncTarget.set(target);
  }

  public void clearAsync() {
    asyncTarget.remove();
  }

  private static Map<String, String> firstValues(HttpHeaders headers) {
    Map<String, String> first = new LinkedHashMap<>();
    headers.map().forEach((name, values) -> {
      if (!values.isEmpty()) {
        first.put(name, values.get(0));
      }
    });
    return first;
  }

  /** Where a request's failed response goes: the async target set on the sending thread, else its slot. */
  private final class Listener implements FailedResponseListener<Consumer<Map<String, String>>> {
    @Override
    public Consumer<Map<String, String>> onSend(HttpRequest request) {
      Consumer<Map<String, String>> target = asyncTarget.get();
      if (target != null) {
        return target;
      }
      AtomicReference<Map<String, String>> slot = lastErrorHeaders.get();
      if (slot == null) {
        slot = new AtomicReference<>();
        lastErrorHeaders.set(slot);
      }
      return slot::set;
    }

    @Override
    public void onFailedResponse(Consumer<Map<String, String>> target, int status, HttpHeaders headers) {
      target.accept(firstValues(headers));
    }
  }
}
