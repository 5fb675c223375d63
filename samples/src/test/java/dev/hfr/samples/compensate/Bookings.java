package dev.hfr.samples.compensate;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A tool class with a compensate method, compiled by the HFR processor into {@code Bookings_Recovering}:
 * booking a night is a queryable write (R2) undone by {@code cancelBooking}, itself a queryable write with
 * its own reconcile method; the confirmation mail is irreversible (R3) and has nothing to undo it.
 */
public class Bookings {

  private final HttpClient client = HttpClient.newHttpClient();
  private final URI hotel;

  public Bookings(URI hotel) {
    this.hotel = hotel;
  }

  /** Books {@code night} for {@code guest}; the hotel answers with the booking id. */
  @SideEffect(value = Risk.R2, reconcile = "findBooking", compensate = "cancelBooking")
  public String book(String guest, String night) throws IOException, InterruptedException {
    return send("POST", "/bookings", guest, night);
  }

  /** Read-only by contract: the booking of {@code guest} for {@code night}, if the hotel has one. */
  public Optional<String> findBooking(String guest, String night) throws IOException, InterruptedException {
    String id = send("GET", "/bookings", guest, night);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Cancels the booking of {@code guest} for {@code night}: the compensation of {@link #book}. */
  @SideEffect(value = Risk.R2, reconcile = "findCancellation")
  public String cancelBooking(String guest, String night) throws IOException, InterruptedException {
    return send("POST", "/cancellations", guest, night);
  }

  /** Read-only by contract: the cancellation of that booking, if any. */
  public Optional<String> findCancellation(String guest, String night) throws IOException, InterruptedException {
    String id = send("GET", "/cancellations", guest, night);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Mails the confirmation: irreversible, and nothing can take it back. */
  @SideEffect(Risk.R3)
  public String sendConfirmation(String guest, String night) throws IOException, InterruptedException {
    return send("POST", "/mail", guest, night);
  }

  private String send(String method, String path, String guest, String night) throws IOException, InterruptedException {
    String query = "?guest=" + URLEncoder.encode(guest, StandardCharsets.UTF_8) + "&night=" + URLEncoder.encode(night, StandardCharsets.UTF_8);
    HttpRequest request = HttpRequest.newBuilder(hotel.resolve(path + query)).timeout(Duration.ofSeconds(5))
        .method(method, HttpRequest.BodyPublishers.noBody()).build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(method + " " + path + " answered " + response.statusCode());
    }
    return response.body();
  }
}
