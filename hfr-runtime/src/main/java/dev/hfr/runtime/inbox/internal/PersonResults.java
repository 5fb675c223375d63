package dev.hfr.runtime.inbox.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * A person's "it happened, here is its result" as the tool's own return value: the text itself for a tool returning
 * text, nothing for a void tool, else the text read as JSON into the return type. Empty when it cannot be one (no
 * result given for a tool that returns a value, or text that does not read as its type): the model is then told a
 * person confirmed it, without a result.
 */
public final class PersonResults {

  private static final ObjectMapper JSON = new ObjectMapper();

  private PersonResults() {}

  public static Optional<Object> asResult(String text, Class<?> type) {
    if (type == void.class || type == Void.class) {
      return Optional.of(NONE);
    }
    if (text == null) {
      return Optional.empty();
    }
    if (type == null || type == String.class || type == CharSequence.class || type == Object.class) {
      return Optional.of(text);
    }
    try {
      return Optional.ofNullable(JSON.readValue(text, type));
    } catch (Exception notThatType) {
      return Optional.empty();
    }
  }

  /** Stands for a void tool's {@code null} (an {@link Optional} holds no null). */
  private static final Object NONE = new Object();

  /** {@code value} from {@link #asResult}, with a void tool's stand-in turned back into {@code null}. */
  public static Object unwrap(Object value) {
    return value == NONE ? null : value;
  }
}
