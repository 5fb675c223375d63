package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Exceptions are classified by their whole cause chain")
class CauseChainTest {

  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier();

  private Classification classify(Throwable t) {
    return classifier.classify(Observation.of(t));
  }

  @Test
  void timeoutsAreT3() {
    assertThat(classify(new HttpTimeoutException("request timed out")).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new SocketTimeoutException("Read timed out")).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new InterruptedIOException("interrupted")).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new TimeoutException()).fault()).isEqualTo(Fault.T3);
  }

  @Test
  @DisplayName("a connect timeout or refusal is T1: the request never left, so a retry is safe even for writes")
  void connectPhaseFailuresAreT1() {
    assertThat(classify(new HttpConnectTimeoutException("HTTP connect timed out")).fault()).isEqualTo(Fault.T1);
    assertThat(classify(new SocketTimeoutException("Connect timed out")).fault()).isEqualTo(Fault.T1);
    assertThat(classify(new ConnectException("Connection refused")).rule()).isEqualTo("exception.connect-refused");
    assertThat(classify(new UnknownHostException("api.example.com")).rule()).isEqualTo("exception.unknown-host");
  }

  @Test
  @DisplayName("a reset, EOF or close after the request was sent is T3: the outcome of a write is unknown")
  void connectionLostAfterSendIsT3() {
    Classification reset = classify(new SocketException("Connection reset"));
    assertThat(reset.fault()).isEqualTo(Fault.T3);
    assertThat(reset.secondary()).isEqualTo(Fault.T1);
    assertThat(classify(new SocketException("Broken pipe")).rule()).isEqualTo("exception.connection-reset");
    assertThat(classify(new EOFException()).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new IOException("HTTP/1.1 header parser received no bytes")).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new IOException("Connection closed")).fault()).isEqualTo(Fault.T3);
    assertThat(classify(new IOException("stream was reset: REFUSED_STREAM")).fault())
        .as("an HTTP/2 refused stream was not processed").isEqualTo(Fault.T1);
  }

  @Test
  @DisplayName("the JDK HttpClient's refused connect (ConnectException over ClosedChannelException) stays T1")
  void connectPhaseBeatsTheDeeperChannelClose() {
    ConnectException outer = new ConnectException();
    ConnectException inner = new ConnectException();
    inner.initCause(new java.nio.channels.ClosedChannelException());
    outer.initCause(inner);
    assertThat(classify(outer).rule()).isEqualTo("exception.connect-refused");
  }

  @Test
  void tlsHandshakeFailuresArePermanent() {
    assertThat(classify(new SSLHandshakeException("PKIX path building failed")).fault()).isEqualTo(Fault.T7);
    assertThat(classify(new SSLHandshakeException("Remote host terminated the handshake")).fault()).isEqualTo(Fault.T1);
  }

  @Test
  void interruptionIsNotATransientFault() {
    Classification c = classify(new InterruptedException());
    assertThat(c.fault()).isEqualTo(Fault.T3);
    assertThat(c.rule()).isEqualTo("exception.interrupted");
  }

  @Test
  @DisplayName("the root cause wins over wrappers: ExecutionException(UncheckedIOException(ConnectException))")
  void deepestTransportCauseWins() {
    Throwable t = new ExecutionException(new UncheckedIOException(new IOException("wrapped", new ConnectException("refused"))));
    assertThat(classify(t).fault()).isEqualTo(Fault.T1);
    Throwable timeout = new CompletionException(new HttpTimeoutException("request timed out"));
    assertThat(classify(timeout).fault()).isEqualTo(Fault.T3);
  }

  @Test
  @DisplayName("an HttpCallException anywhere in the chain supplies status, headers and body")
  void observableFailureDeepInTheChainIsUsed() {
    HttpCallException http = new HttpCallException(429, Map.of("Retry-After", List.of("7")),
        "{\"error\":{\"type\":\"rate_limit_error\"}}");
    Throwable t = new IllegalStateException("tool failed", new RuntimeException("wrapped", http));
    Classification c = classify(t);
    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isEqualTo(7000);
  }

  @Test
  @DisplayName("an SDK exception carrying the provider's body in its message is read by the body's codes")
  void sdkExceptionMessagesAreRead() {
    class InvalidRequestException extends RuntimeException {
      private static final long serialVersionUID = 1L;

      InvalidRequestException(String m) {
        super(m);
      }
    }
    class RateLimitException extends RuntimeException {
      private static final long serialVersionUID = 1L;

      RateLimitException(String m) {
        super(m);
      }
    }
    assertThat(classify(new InvalidRequestException(
        "{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}")).fault()).isEqualTo(Fault.T6);
    assertThat(classify(new InvalidRequestException("bad temperature")).fault()).isEqualTo(Fault.T7);
    assertThat(classify(new RateLimitException("slow down")).fault()).isEqualTo(Fault.T2);
    assertThat(classify(new RateLimitException("You exceeded your current quota")).fault())
        .as("the message's quota beats the class name's rate limit").isEqualTo(Fault.T7);
    assertThat(classify(new RuntimeException("upstream said: overloaded_error")).fault()).isEqualTo(Fault.T4);
  }

  @Test
  void unknownExceptionsAreUnclassifiedWithLowConfidence() {
    Classification c = classify(new IllegalStateException("boom"));
    assertThat(c.fault()).isEqualTo(Fault.UNCLASSIFIED);
    assertThat(c.confidence()).isLessThan(0.5);
    assertThat(classify(new NullPointerException()).fault()).isEqualTo(Fault.UNCLASSIFIED);
  }

  @Test
  void selfReferencingAndCyclicChainsEnd() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b); // a -> b -> a
    assertThat(classify(a).fault()).isEqualTo(Fault.UNCLASSIFIED);
    assertThat(classifier.errorCount()).isZero();
  }

  @Test
  @DisplayName("a rule that fails is answered classifier.error, counted and kept for diagnosis")
  void failingRulesAreCountedNotSwallowed() {
    RuntimeException hostile = new RuntimeException() {
      private static final long serialVersionUID = 1L;

      @Override
      public String getMessage() {
        throw new IllegalStateException("hostile getMessage");
      }
    };
    Classification c = classify(hostile);
    assertThat(c.fault()).isEqualTo(Fault.UNCLASSIFIED);
    assertThat(c.rule()).isEqualTo(DefaultFailureClassifier.RULE_CLASSIFIER_ERROR);
    assertThat(c.confidence()).isZero();
    assertThat(classifier.errorCount()).isEqualTo(1);
    assertThat(classifier.lastError()).hasMessage("hostile getMessage");
  }

  @Test
  void nullObservationIsUnclassified() {
    assertThat(classifier.classify(null).fault()).isEqualTo(Fault.UNCLASSIFIED);
  }
}
