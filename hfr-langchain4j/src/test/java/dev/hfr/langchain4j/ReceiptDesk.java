package dev.hfr.langchain4j;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.langchain4j.agent.tool.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A shop's e-mail tools (R3) against a real mail service: a receipt, and a refund note that needs a person's approval. */
public class ReceiptDesk {

  private final URI mail;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

  public ReceiptDesk(URI mail) {
    this.mail = mail;
  }

  @Tool("Sends the order's receipt to the customer and returns the provider's message id")
  @SideEffect(Risk.R3)
  public String sendReceipt(String to) throws IOException, InterruptedException {
    return post("/receipt", to);
  }

  @Tool("Sends the customer a note that their refund was granted")
  @SideEffect(value = Risk.R3, requiresApproval = true)
  public String sendRefundNote(String to) throws IOException, InterruptedException {
    return post("/refund-note", to);
  }

  private String post(String path, String to) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(mail.resolve(path)).timeout(Duration.ofSeconds(2))
        .POST(HttpRequest.BodyPublishers.ofString(to)).build(), HttpResponse.BodyHandlers.ofString());
    return r.body();
  }
}
