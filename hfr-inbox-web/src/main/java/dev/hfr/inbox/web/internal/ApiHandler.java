package dev.hfr.inbox.web.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.Inbox;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxItem;
import java.io.IOException;
import java.util.Optional;

/**
 * The HTTP API: {@code GET /api/items} (filters {@code tenant}, {@code tool}, {@code reason}, {@code state}), {@code GET
 * /api/items/{id}}, {@code POST /api/items/{id}/answer} with {@code {"answer":"happened","reason":"...","result":"..."}}.
 * Every request needs {@code Authorization: Bearer <token>}; a bearer token is never sent by a browser on its own, so
 * the API needs no CSRF token.
 */
public final class ApiHandler implements HttpHandler {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Inbox inbox;
  private final Operators operators;

  public ApiHandler(Inbox inbox, Operators operators) {
    this.inbox = inbox;
    this.operators = operators;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      Optional<String> who = operators.fromBearer(ex.getRequestHeaders().getFirst("Authorization"));
      if (who.isEmpty()) {
        ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"hfr-inbox\"");
        error(ex, 401, "unauthenticated", "send Authorization: Bearer <an operator's token>");
        return;
      }
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      String[] parts = path.substring("/api/items".length()).split("/");
      if (!path.startsWith("/api/items")) {
        error(ex, 404, "not_found", "the API is under /api/items");
      } else if (parts.length <= 1 && method.equals("GET")) {
        try {
          json(ex, 200, ItemJson.list(inbox.list(ItemJson.filter(Http.query(ex)))));
        } catch (IllegalArgumentException e) {
          error(ex, 400, "invalid", e.getMessage());
        }
      } else if (parts.length == 2 && method.equals("GET")) {
        Optional<InboxItem> item = inbox.get(parts[1]);
        if (item.isPresent()) {
          json(ex, 200, ItemJson.item(item.get()));
        } else {
          error(ex, 404, "not_found", "no inbox item " + parts[1]);
        }
      } else if (parts.length == 3 && parts[2].equals("answer") && method.equals("POST")) {
        answer(ex, parts[1], who.get());
      } else {
        error(ex, 405, "invalid", method + " " + path + " is not part of the inbox API");
      }
    }
  }

  private void answer(HttpExchange ex, String id, String who) throws IOException {
    JsonNode body;
    try {
      body = JSON.readTree(Http.body(ex));
    } catch (IOException e) {
      error(ex, 400, "invalid", "the body must be JSON: {\"answer\":\"happened\",\"reason\":\"...\",\"result\":\"...\"}");
      return;
    }
    try {
      Answer answer = Answer.of(body == null ? null : body.path("answer").asText(null));
      InboxItem answered = inbox.answer(id, answer, who, text(body, "reason"), text(body, "result"));
      json(ex, 200, ItemJson.item(answered));
    } catch (IllegalArgumentException e) {
      error(ex, 400, "invalid", e.getMessage());
    } catch (InboxAnswerException e) {
      error(ex, switch (e.code()) {
        case "not_found" -> 404;
        case "conflict" -> 409;
        default -> 400;
      }, e.code(), e.getMessage());
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode n = body.get(field);
    return n == null || n.isNull() ? null : n.asText();
  }

  private static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
    Http.send(ex, status, "application/json", JSON.writeValueAsString(body));
  }

  private static void error(HttpExchange ex, int status, String code, String message) throws IOException {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", code);
    o.put("message", message);
    json(ex, status, o);
  }

}
