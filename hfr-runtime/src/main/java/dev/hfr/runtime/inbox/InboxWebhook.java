package dev.hfr.runtime.inbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * Tells people a new item waits: posts a Slack-compatible body ({@code {"text": "..."}}, which Slack's incoming
 * webhooks, Mattermost and most chat tools take) to a URL, without blocking the call that filed the item. The text
 * names the tool, the reason, the tenant, the item's id and, when given, the inbox page — never the arguments.
 *
 * <pre>{@code
 * hfr.inbox().onFiled(InboxWebhook.to(URI.create(System.getenv("SLACK_WEBHOOK_URL")), URI.create("https://ops.acme/inbox/")));
 * }</pre>
 */
public final class InboxWebhook implements NewItemListener {

  private static final System.Logger LOG = System.getLogger("dev.hfr.inbox");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI webhook;
  private final URI page;
  private final HttpClient client;

  private InboxWebhook(URI webhook, URI page) {
    this.webhook = Objects.requireNonNull(webhook, "webhook");
    this.page = page;
    this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** Posts to {@code webhook}, linking to the inbox page at {@code page} ({@code null}: no link). */
  public static InboxWebhook to(URI webhook, URI page) {
    return new InboxWebhook(webhook, page);
  }

  /** The body posted for {@code item}. */
  public String body(InboxItem item) {
    String what = item.kind() == ItemKind.APPROVAL ? "An approval waits" : "A call waits for a person";
    ObjectNode o = JSON.createObjectNode();
    o.put("text", what + ": " + item.tool() + " (" + item.reason().replace('_', ' ') + ", tenant " + item.tenant()
        + ", task " + item.taskId() + "), inbox item " + item.id() + (page == null ? "" : " — " + page));
    return o.toString();
  }

  /** Posts {@link #body} for {@code item}, asynchronously; a failure is logged. */
  @Override
  public void onFiled(InboxItem item) {
    HttpRequest request = HttpRequest.newBuilder(webhook).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body(item))).build();
    client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
      if (e != null || r.statusCode() >= 300) {
        LOG.log(System.Logger.Level.WARNING, "the inbox webhook " + webhook.getHost() + " did not take item " + item.id()
            + ": " + (e != null ? e : "HTTP " + r.statusCode()));
      }
    });
  }
}
