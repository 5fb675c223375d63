package dev.hfr.samples.temporal.shop;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The operations desk where a workflow puts a question to a person (a ticket system, in a real shop). */
public final class Desk {

  private final URI desk;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  /** @param shop where the shop's services (and its desk) listen */
  public Desk(URI shop) {
    this.desk = shop.resolve("/desk");
  }

  /** Opens a ticket about the workflow {@code ref}. */
  public void ask(String ref, String question) throws IOException, InterruptedException {
    String form = "ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8) + "&question="
        + URLEncoder.encode(question, StandardCharsets.UTF_8);
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(desk).timeout(Duration.ofSeconds(2))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form))
        .build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 202) {
      throw new IOException("the desk answered " + response.statusCode());
    }
  }
}
