package dev.hfr.agent.internal.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HttpClientInstrumentationsTest {

  private static final List<TypeInstrumentation> ALL = List.of(new JdkHttpClientInstrumentation(),
      new HttpUrlConnectionInstrumentation(), new OkHttpInstrumentation(), new ApacheHttpClient5Instrumentation());

  @Test
  @DisplayName("the class names the start-up path reads are the ones each client's instrumentation instruments")
  void classNamesAreEachInstrumentations() {
    assertThat(ALL).extracting(TypeInstrumentation::client)
        .containsExactly(HfrBridge.JDK_HTTP_CLIENT, HfrBridge.HTTP_URL_CONNECTION, HfrBridge.OKHTTP, HfrBridge.APACHE_HTTPCLIENT5);
    for (TypeInstrumentation instrumentation : ALL) {
      assertThat(HttpClientInstrumentations.classNames(instrumentation.client()))
          .as(instrumentation.getClass().getSimpleName()).isEqualTo(instrumentation.classNames());
    }
  }

  @Test
  @DisplayName("the hooks built on first use are each client's instrumentation's")
  void hooksAreEachInstrumentations() {
    for (TypeInstrumentation instrumentation : ALL) {
      assertThat(HttpClientInstrumentations.hooks(instrumentation.client())).as(instrumentation.getClass().getSimpleName())
          .extracting(Object::getClass)
          .containsExactlyElementsOf(instrumentation.hooks().stream().<Class<?>>map(Object::getClass).toList());
    }
  }
}
