package dev.hfr.spring.ai;

import com.openai.errors.OpenAIServiceException;
import dev.hfr.runtime.classify.Observation;

/** Reads the OpenAI Java SDK's failure (status, headers, body); loaded only when the SDK is on the class path. */
final class OpenAiSdkFailures {

  private static final int MAX_BODY = 4096;

  private OpenAiSdkFailures() {}

  static void describe(Throwable failure, Observation.Builder b) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof OpenAIServiceException e) {
        b.httpStatus(e.statusCode());
        for (String name : e.headers().names()) {
          for (String value : e.headers().values(name)) {
            b.header(name, value);
          }
        }
        String body = String.valueOf(e.body());
        b.body(body.length() <= MAX_BODY ? body : body.substring(0, MAX_BODY));
        return;
      }
    }
  }
}
