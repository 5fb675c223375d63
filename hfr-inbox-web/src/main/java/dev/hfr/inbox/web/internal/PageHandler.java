package dev.hfr.inbox.web.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.Inbox;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inbox page: sign in with a token, see what waits (oldest first, with its evidence, filtered by tenant, tool and
 * reason) and answer with a button. Answers are forms that carry the session's CSRF token, from a page no other
 * site can frame, checked against the request's {@code Origin} as well.
 */
public final class PageHandler implements HttpHandler {

  private final Inbox inbox;
  private final Operators operators;
  private final Sessions sessions;

  public PageHandler(Inbox inbox, Operators operators, Sessions sessions) {
    this.inbox = inbox;
    this.operators = operators;
    this.sessions = sessions;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      Sessions.Session session = sessions.of(ex.getRequestHeaders().getFirst("Cookie"));
      if (path.equals("/login")) {
        if (method.equals("POST")) {
          login(ex);
        } else {
          Http.send(ex, 200, InboxPage.HTML, InboxPage.login(null));
        }
      } else if (session == null) {
        if (method.equals("GET") && path.equals("/")) {
          Http.redirect(ex, "/login");
        } else {
          Http.send(ex, 401, InboxPage.HTML, InboxPage.login("Sign in first."));
        }
      } else if (path.equals("/") && method.equals("GET")) {
        page(ex, session);
      } else if (path.equals("/answer") && method.equals("POST")) {
        answer(ex, session);
      } else if (path.equals("/logout") && method.equals("POST")) {
        Map<String, String> form = Http.decode(Http.body(ex));
        if (sameSite(ex) && session.csrf().equals(form.get("csrf"))) {
          sessions.close(session);
        }
        Http.redirect(ex, "/login");
      } else {
        Http.send(ex, 404, InboxPage.HTML, InboxPage.notFound());
      }
    }
  }

  private void login(HttpExchange ex) throws IOException {
    Map<String, String> form = Http.decode(Http.body(ex));
    Optional<String> who = operators.who(form.get("token"));
    if (who.isEmpty()) {
      Http.send(ex, 401, InboxPage.HTML, InboxPage.login("That token is not an operator's."));
      return;
    }
    Sessions.Session s = sessions.open(who.get());
    ex.getResponseHeaders().add("Set-Cookie", Sessions.COOKIE + "=" + s.id() + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
        + sessions.ttlSeconds());
    Http.redirect(ex, "/");
  }

  private void page(HttpExchange ex, Sessions.Session session) throws IOException {
    Map<String, String> q = Http.query(ex);
    InboxFilter filter;
    try {
      filter = ItemJson.filter(q);
    } catch (IllegalArgumentException e) {
      filter = InboxFilter.WAITING;
      q = Map.of("error", e.getMessage());
    }
    List<InboxItem> items = inbox.list(filter);
    Http.send(ex, 200, InboxPage.HTML, InboxPage.inbox(session, items, filter, q.get("done"), q.get("error")));
  }

  private void answer(HttpExchange ex, Sessions.Session session) throws IOException {
    Map<String, String> form = Http.decode(Http.body(ex));
    if (!sameSite(ex) || !session.csrf().equals(form.get("csrf"))) {
      Http.send(ex, 403, InboxPage.HTML, InboxPage.forbidden());
      return;
    }
    String id = form.getOrDefault("id", "");
    try {
      Answer answer = Answer.of(form.get("answer"));
      inbox.answer(id, answer, session.operator(), form.get("reason"), blankToNull(form.get("result")));
      Http.redirect(ex, "/?done=" + Http.encode(answer.label() + " — recorded for item " + id));
    } catch (IllegalArgumentException | InboxAnswerException e) {
      Http.redirect(ex, "/?error=" + Http.encode(e.getMessage()));
    }
  }

  /** A request the page itself sent: its Origin (or, without one, its Referer) is this server. */
  private static boolean sameSite(HttpExchange ex) {
    String host = ex.getRequestHeaders().getFirst("Host");
    String origin = ex.getRequestHeaders().getFirst("Origin");
    if (origin == null) {
      origin = ex.getRequestHeaders().getFirst("Referer");
    }
    if (origin == null || host == null) {
      return origin == null; // a client that sends neither (not a browser) still needs the CSRF token
    }
    try {
      URI u = URI.create(origin);
      return host.equalsIgnoreCase(u.getRawAuthority());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
