package dev.hfr.runtime.internal.http;

import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;

/**
 * Sees the head of every failed response (status 400 or more) of a JDK {@link java.net.http.HttpClient}
 * built by {@link ObservedHttpClients}, before the library that sent the request reads it. Libraries (an LLM
 * provider's SDK, the MCP SDK) turn such a response into an exception that keeps the status at best and
 * drops the headers — and with them {@code Retry-After}, which HFR's backoff honours.
 *
 * @param <C> what a request's failed response is handed to (say, the capture of the call that sent it)
 */
public interface FailedResponseListener<C> {

  /**
   * Called on the sending thread as a request leaves.
   *
   * @return what this request's failed response is handed to, or {@code null} to ignore the request
   */
  C onSend(HttpRequest request);

  /** Called on the thread the failed response's head arrives on, before the sender's body handler runs. */
  void onFailedResponse(C target, int status, HttpHeaders headers);
}
