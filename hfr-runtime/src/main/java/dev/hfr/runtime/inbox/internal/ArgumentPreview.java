package dev.hfr.runtime.inbox.internal;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.internal.telemetry.PiiRedaction;
import dev.hfr.runtime.ledger.Canonical;
import java.util.List;

/**
 * The arguments a person sees in the inbox: {@code name=value} in canonical form, with e-mail addresses, card and
 * phone numbers and IP addresses replaced by the decision log's PII rules, each value cut at {@value #MAX_VALUE}
 * characters. The idempotency key parameter is left out (the runtime fills it; it is not the call's intent).
 */
public final class ArgumentPreview {

  static final int MAX_VALUE = 200;

  private ArgumentPreview() {}

  public static String of(ToolDescriptor tool, ToolInvocation<?> invocation) {
    StringBuilder out = new StringBuilder();
    List<String> names = tool.parameterNames();
    for (int i = 0; i < invocation.argumentCount(); i++) {
      if (i == tool.idempotencyKeyParameter()) {
        continue;
      }
      if (out.length() > 0) {
        out.append(", ");
      }
      out.append(i < names.size() ? names.get(i) : "arg" + i).append('=').append(value(invocation.argument(i)));
    }
    return out.toString();
  }

  private static String value(Object argument) {
    String text;
    try {
      text = Canonical.of(argument);
    } catch (RuntimeException e) {
      text = "<" + (argument == null ? "null" : argument.getClass().getSimpleName()) + ">";
    }
    if (text.length() > MAX_VALUE) {
      text = text.substring(0, MAX_VALUE) + "…";
    }
    return PiiRedaction.redact(text);
  }
}
