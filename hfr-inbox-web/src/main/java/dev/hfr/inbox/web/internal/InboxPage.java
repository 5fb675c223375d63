package dev.hfr.inbox.web.internal;

import static dev.hfr.inbox.web.internal.Http.escape;

import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemKind;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.PersonAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The page's HTML: plain forms, no script; every value from an item is escaped. */
final class InboxPage {

  static final String HTML = "text/html; charset=utf-8";

  private static final String STYLE = """
      body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em;color:#222}
      header{display:flex;justify-content:space-between;align-items:center}
      .item{border:1px solid #ccc;border-radius:6px;padding:.8em 1em;margin:1em 0}
      .item h2{font-size:1.05em;margin:0 0 .4em}
      dl{display:grid;grid-template-columns:10em 1fr;gap:.2em .8em;margin:.4em 0}
      dt{color:#666} dd{margin:0;overflow-wrap:anywhere}
      pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:24em}
      .answer{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin-top:.6em}
      .answer input[type=text]{flex:1;min-width:12em}
      .done{background:#e8f5e9;padding:.5em} .error{background:#fdecea;padding:.5em}
      .filters{display:flex;gap:.5em;flex-wrap:wrap}
      """;

  private InboxPage() {}

  static String login(String error) {
    return page("Sign in", (error == null ? "" : "<p class=\"error\" id=\"error\">" + escape(error) + "</p>")
        + "<form method=\"post\" action=\"/login\"><label>Operator token <input type=\"password\" name=\"token\""
        + " id=\"token\" autocomplete=\"current-password\" required></label> <button type=\"submit\" id=\"sign-in\">Sign in"
        + "</button></form>");
  }

  static String notFound() {
    return page("Not found", "<p>Nothing here. <a href=\"/\">The inbox</a></p>");
  }

  static String forbidden() {
    return page("Refused", "<p class=\"error\" id=\"error\">This answer did not come from the inbox page (its CSRF token"
        + " or origin does not match): nothing was changed. <a href=\"/\">Back to the inbox</a></p>");
  }

  static String inbox(Sessions.Session session, List<InboxItem> items, InboxFilter filter, String done, String error) {
    StringBuilder b = new StringBuilder();
    b.append("<header><p>Signed in as <strong id=\"operator\">").append(escape(session.operator())).append("</strong></p>")
        .append("<form method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"csrf\" value=\"")
        .append(escape(session.csrf())).append("\"><button type=\"submit\">Sign out</button></form></header>");
    if (done != null) {
      b.append("<p class=\"done\" id=\"done\">").append(escape(done)).append("</p>");
    }
    if (error != null) {
      b.append("<p class=\"error\" id=\"error\">").append(escape(error)).append("</p>");
    }
    b.append("<form method=\"get\" action=\"/\" class=\"filters\">")
        .append(filterField("tenant", filter.tenant())).append(filterField("tool", filter.tool()))
        .append(filterField("reason", filter.reason()))
        .append("<label>State <select name=\"state\" id=\"filter-state\">");
    for (String s : List.of("waiting", "answered", "used", "expired", "all")) {
      boolean selected = filter.state() == null ? s.equals("all") : filter.state().name().equalsIgnoreCase(s);
      b.append("<option").append(selected ? " selected" : "").append('>').append(s).append("</option>");
    }
    b.append("</select></label><button type=\"submit\" id=\"filter\">Filter</button></form>");
    b.append("<p id=\"count\">").append(items.size()).append(items.size() == 1 ? " item" : " items").append(", oldest first</p>");
    Instant now = Instant.now();
    for (InboxItem i : items) {
      item(b, i, session, now);
    }
    return page("HFR inbox", b.toString());
  }

  private static String filterField(String name, String value) {
    return "<label>" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1) + " <input type=\"text\" name=\""
        + name + "\" id=\"filter-" + name + "\" value=\"" + escape(value) + "\"></label>";
  }

  private static void item(StringBuilder b, InboxItem i, Sessions.Session session, Instant now) {
    b.append("<article class=\"item\" id=\"item-").append(escape(i.id())).append("\" data-id=\"").append(escape(i.id()))
        .append("\"><h2>").append(escape(i.tool())).append(" — ").append(escape(i.reason().replace('_', ' ')))
        .append("</h2><dl>")
        .append(row("What", i.kind() == ItemKind.APPROVAL ? "approval request" : "escalation"))
        .append(row("Tenant", i.tenant())).append(row("Task", i.taskId())).append(row("Risk", i.risk()))
        .append(row("Arguments", i.argsPreview()))
        .append(row("Waiting", age(Duration.between(i.createdAt(), now)) + " (since " + i.createdAt() + ")"));
    if (i.expiresAt() != null) {
      b.append(row("Expires", i.expiresAt().toString()));
    }
    if (i.ledgerKey() != null) {
      b.append(row("Ledger key", i.ledgerKey()));
    }
    PersonAnswer a = i.answer();
    if (a != null) {
      b.append(row("Answer", a.answer().label() + " by " + a.by() + " at " + a.at()
          + (a.reason().isEmpty() ? "" : " — " + a.reason()) + (a.result() == null ? "" : " (result: " + a.result() + ")")));
    }
    b.append("</dl><details><summary>Evidence</summary><pre class=\"evidence\">").append(escape(ItemJson.pretty(i.evidence())))
        .append("</pre></details>");
    if (i.state() == ItemState.WAITING) {
      answerForm(b, i, session);
    }
    b.append("</article>");
  }

  private static void answerForm(StringBuilder b, InboxItem i, Sessions.Session session) {
    b.append("<form method=\"post\" action=\"/answer\" class=\"answer\"><input type=\"hidden\" name=\"csrf\" value=\"")
        .append(escape(session.csrf())).append("\"><input type=\"hidden\" name=\"id\" value=\"").append(escape(i.id()))
        .append("\"><input type=\"text\" name=\"reason\" placeholder=\"why (required to deny)\" class=\"reason\">");
    List<Answer> answers;
    if (i.kind() == ItemKind.APPROVAL) {
      answers = List.of(Answer.APPROVE, Answer.DENY);
    } else if (i.ledgerKey() != null) {
      b.append("<input type=\"text\" name=\"result\" placeholder=\"provider's reference (if it happened)\" class=\"result\">");
      answers = List.of(Answer.HAPPENED, Answer.DID_NOT_HAPPEN, Answer.UNDO, Answer.LEAVE);
    } else {
      answers = List.of(Answer.LEAVE);
    }
    for (Answer a : answers) {
      b.append("<button type=\"submit\" name=\"answer\" value=\"").append(a.code()).append("\" class=\"answer-")
          .append(a.code()).append("\">").append(escape(a.label())).append("</button>");
    }
    b.append("</form>");
  }

  private static String row(String name, String value) {
    return "<dt>" + escape(name) + "</dt><dd>" + escape(value) + "</dd>";
  }

  private static String age(Duration d) {
    if (d.isNegative()) {
      return "just now";
    }
    if (d.toHours() >= 1) {
      return d.toHours() + " h " + d.toMinutesPart() + " min";
    }
    return d.toMinutes() >= 1 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }

  private static String page(String title, String body) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\""
        + " content=\"width=device-width,initial-scale=1\"><title>" + escape(title) + "</title><style>" + STYLE
        + "</style></head><body><h1>" + escape(title) + "</h1>" + body + "</body></html>";
  }
}
