package dev.hfr.agent.internal.instrumentation;

import java.util.List;

/** Everything the agent instruments: one {@link TypeInstrumentation} per HTTP client. */
public final class HttpClientInstrumentations {

  private HttpClientInstrumentations() {}

  /** The instrumentations, in bridge slot order. */
  public static List<TypeInstrumentation> all() {
    return List.of(
        new JdkHttpClientInstrumentation(),
        new HttpUrlConnectionInstrumentation(),
        new OkHttpInstrumentation(),
        new ApacheHttpClient5Instrumentation());
  }
}
