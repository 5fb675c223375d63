package dev.hfr.runtime.inbox;

import java.util.Locale;

/**
 * What a person can answer. An escalated write: {@link #HAPPENED}, {@link #DID_NOT_HAPPEN}, {@link #UNDO} or {@link
 * #LEAVE}; an
 * approval request: {@link #APPROVE} or {@link #DENY}. Any escalation may be left ({@link #LEAVE}).
 */
public enum Answer {
  /** The write took effect (optionally with the provider's reference as its result): it is COMMITTED, never sent again. */
  HAPPENED("it happened", ItemKind.ESCALATION),
  /** The write did not take effect: the model's next call sends it once more, under its key. */
  DID_NOT_HAPPEN("it did not happen", ItemKind.ESCALATION),
  /**
   * The write took effect and must not stand: it is COMMITTED, and the model's next call of it undoes it through the
   * tool's compensate method (that call has the arguments; the inbox never keeps them raw) instead of sending it.
   */
  UNDO("undo it", ItemKind.ESCALATION),
  /** Closed as it is: the model's next call is told a person closed it, nothing is sent. */
  LEAVE("leave it", ItemKind.ESCALATION),
  /** The call may run, once, with exactly these arguments, before the approval expires. */
  APPROVE("approve", ItemKind.APPROVAL),
  /** The call may not run; the model is told the reason. */
  DENY("deny", ItemKind.APPROVAL);

  private final String label;
  private final ItemKind kind;

  Answer(String label, ItemKind kind) {
    this.label = label;
    this.kind = kind;
  }

  /** The words the web page shows on its button. */
  public String label() {
    return label;
  }

  /** The kind of item this answers. */
  public ItemKind answers() {
    return kind;
  }

  /** The lower_snake code used in HTTP requests, JSON and the decision log. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The answer named {@code code} ({@code happened}, {@code did_not_happen}, {@code leave}, {@code approve},
   * {@code deny}; case-insensitive).
   *
   * @throws IllegalArgumentException naming the accepted codes
   */
  public static Answer of(String code) {
    if (code != null) {
      for (Answer a : values()) {
        if (a.code().equalsIgnoreCase(code.trim())) {
          return a;
        }
      }
    }
    throw new IllegalArgumentException("unknown answer '" + code + "': use one of happened, did_not_happen, undo, leave,"
        + " approve, deny");
  }
}
