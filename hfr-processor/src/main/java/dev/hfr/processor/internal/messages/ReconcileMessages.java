package dev.hfr.processor.internal.messages;

/** Rule 3 (R2 writes need a reconcile method), the compensate method's checks, and their warnings. */
public final class ReconcileMessages {

  /** Rule 3: an R2 write names a working reconcile method. */
  public static final String RECONCILE_REQUIRED = "hfr/reconcile-required";
  /** A compensate method exists, takes the tool's parameters, and is callable from the proxy. */
  public static final String COMPENSATE_TARGET = "hfr/compensate-target";
  /** Warning: a reconcile method the runtime never calls. */
  public static final String RECONCILE_UNUSED = "hfr/reconcile-unused";
  /** Warning: a compensate method on a read-only method. */
  public static final String COMPENSATE_READ = "hfr/compensate-read";

  private ReconcileMessages() {}

  public static String missing(String method, String resultType) {
    return "[" + RECONCILE_REQUIRED + "] " + method + " is R2 (queryable write) but names no reconcile"
        + " method: add reconcile = \"...\" naming a method that takes the same parameters and returns"
        + " Optional<" + resultType + ">, or declare R3 if the write cannot be queried";
  }

  public static String notFound(String method, String reconcile, String type) {
    return notFound(method, reconcile, type, null);
  }

  /** As {@link #notFound(String, String, String)}, naming the method the misspelt name most likely meant. */
  public static String notFound(String method, String reconcile, String type, String meant) {
    return "[" + RECONCILE_REQUIRED + "] " + method + " names reconcile method " + reconcile + ", which does"
        + " not exist in " + type + (meant != null ? ": did you mean reconcile = \"" + meant + "\"?" : ": fix the name or add the method");
  }

  public static String wrongParameters(String method, String reconcile, String parameters) {
    return "[" + RECONCILE_REQUIRED + "] reconcile method " + reconcile + " cannot take the arguments of "
        + method + ": it must take the same parameters (" + parameters + ")";
  }

  public static String wrongReturn(String method, String reconcile, String actual, String resultType) {
    return "[" + RECONCILE_REQUIRED + "] reconcile method " + reconcile + " of " + method + " returns "
        + actual + ": it must return Optional<" + resultType + "> (present = committed with this result,"
        + " empty = not committed)";
  }

  public static String voidWrite(String method) {
    return "[" + RECONCILE_REQUIRED + "] " + method + " is R2 (queryable write) but returns void, so a"
        + " reconcile method has no result to report: return what the write created (its id or record)";
  }

  public static String notCallable(String method, String reconcile, String modifier) {
    return "[" + RECONCILE_REQUIRED + "] reconcile method " + reconcile + " of " + method + " is " + modifier
        + ", so the generated proxy cannot call it: make it a non-private instance method";
  }

  public static String ambiguous(String method, String reconcile) {
    return "[" + RECONCILE_REQUIRED + "] " + method + " names reconcile method " + reconcile + ", but"
        + " several overloads of " + reconcile + " fit: rename one of them";
  }

  public static String compensateNotFound(String method, String compensate, String type) {
    return "[" + COMPENSATE_TARGET + "] " + method + " names compensate method " + compensate + ", which"
        + " does not exist in " + type + ": fix the name or add the method";
  }

  public static String compensateWrongParameters(String method, String compensate, String parameters) {
    return "[" + COMPENSATE_TARGET + "] compensate method " + compensate + " cannot take the arguments of "
        + method + ": it must take the same parameters (" + parameters + ")";
  }

  public static String compensateNotCallable(String method, String compensate, String modifier) {
    return "[" + COMPENSATE_TARGET + "] compensate method " + compensate + " of " + method + " is "
        + modifier + ", so the generated proxy cannot call it: make it a non-private instance method";
  }

  public static String compensateWithoutRisk(String method, String compensate) {
    return "[" + COMPENSATE_TARGET + "] compensate method " + compensate + " of " + method + " is a write"
        + " but declares no risk: add @SideEffect(...) to " + compensate;
  }

  public static String compensateAmbiguous(String method, String compensate) {
    return "[" + COMPENSATE_TARGET + "] " + method + " names compensate method " + compensate + ", but"
        + " several overloads of " + compensate + " fit: rename one of them";
  }

  public static String reconcileOnRead(String method) {
    return "[" + RECONCILE_UNUSED + "] " + method + " is R0 (read-only), so its reconcile method is never"
        + " called: remove reconcile";
  }

  public static String reconcileOnIrreversible(String method) {
    return "[" + RECONCILE_UNUSED + "] " + method + " is R3 (irreversible) but names a reconcile method: if"
        + " the write can be queried, declare R2 so ambiguous failures reconcile before retrying; otherwise"
        + " remove reconcile";
  }

  public static String compensateOnRead(String method) {
    return "[" + COMPENSATE_READ + "] " + method + " is R0 (read-only), so there is nothing to compensate:"
        + " remove compensate";
  }
}
