package dev.hfr.processor.internal.messages;

/** Rule 9 (the class and its methods can be proxied), {@code @Verify(by = ...)}, and processor problems. */
public final class ProxyMessages {

  /** Rule 9: the processed class and methods can be subclassed and overridden. */
  public static final String PROXYABLE = "hfr/proxyable";
  /** {@code @Verify(by = ...)} names a usable verifier. */
  public static final String VERIFIER = "hfr/verifier";
  /** The runtime the generated code needs is missing. */
  public static final String RUNTIME_MISSING = "hfr/runtime-missing";
  /** A type the class uses does not exist. */
  public static final String UNRESOLVED_TYPE = "hfr/unresolved-type";
  /** The processor itself failed. */
  public static final String INTERNAL_ERROR = "hfr/internal-error";
  /** Warning: overloaded tools share one name. */
  public static final String OVERLOADED_TOOL = "hfr/overloaded-tool";

  /** Kotlin makes classes and members final unless they are declared open. */
  private static final String KOTLIN_OPEN = " (in Kotlin, where classes and functions are final by default:"
      + " declare it open, or apply the all-open compiler plugin to the HFR annotations)";

  private ProxyMessages() {}

  public static String finalClass(String type) {
    return "[" + PROXYABLE + "] " + type + " is final, so HFR cannot generate " + type + "_Recovering as its"
        + " subclass: remove final" + KOTLIN_OPEN;
  }

  public static String notAClass(String type, String kind) {
    return "[" + PROXYABLE + "] " + type + " is " + kind + ", which HFR cannot subclass: put the tools on a"
        + " class";
  }

  public static String abstractClass(String type) {
    return "[" + PROXYABLE + "] " + type + " is abstract, so its proxy could not be instantiated: annotate"
        + " a concrete class";
  }

  public static String innerClass(String type) {
    return "[" + PROXYABLE + "] " + type + " is an inner class, which a generated top-level proxy cannot"
        + " extend: make it static";
  }

  public static String privateClass(String type) {
    return "[" + PROXYABLE + "] " + type + " is private, so its proxy cannot extend it: make it"
        + " package-private or public";
  }

  public static String noConstructor(String type) {
    return "[" + PROXYABLE + "] " + type + " has only private constructors, so its proxy cannot call one:"
        + " make a constructor package-private, protected or public";
  }

  public static String methodModifier(String method, String modifier) {
    String fix = switch (modifier) {
      case "private" -> "make it package-private, protected or public";
      case "final" -> "remove final" + KOTLIN_OPEN;
      default -> "remove " + modifier;
    };
    return "[" + PROXYABLE + "] " + method + " is " + modifier + ", so the generated proxy cannot override it:"
        + " " + fix;
  }

  public static String notVerifier(String method, String verifier) {
    return "[" + VERIFIER + "] @Verify(by = " + verifier + ".class) on " + method + ": " + verifier + " does"
        + " not implement dev.hfr.runtime.verify.Verifier; implement it or remove by";
  }

  public static String verifierResultType(String method, String verifier, String checks, String result) {
    return "[" + VERIFIER + "] @Verify(by = " + verifier + ".class) on " + method + ": " + verifier
        + " checks " + checks + " but " + method + " returns " + result + "; verify a supertype of the result";
  }

  public static String verifierNotInstantiable(String method, String verifier) {
    return "[" + VERIFIER + "] @Verify(by = " + verifier + ".class) on " + method + ": " + verifier + " needs"
        + " to be a public, non-abstract class with a public no-argument constructor; add one";
  }

  public static String runtimeMissing(String type) {
    return "[" + RUNTIME_MISSING + "] " + type + " has HFR annotations but dev.hfr.runtime is not on the"
        + " class path: add the dependency dev.hfr:hfr-runtime";
  }

  public static String unresolvedType(String type) {
    return "[" + UNRESOLVED_TYPE + "] " + type + " uses a type that does not exist, so HFR generated no"
        + " proxy for it: fix the compile errors reported for " + type;
  }

  public static String internalError(String element, Throwable failure) {
    return "[" + INTERNAL_ERROR + "] the HFR processor failed on " + element + " (" + failure
        + "); no code was generated for it. This is a bug in HFR: please report it with this class";
  }

  public static String overloadedTool(String method) {
    return "[" + OVERLOADED_TOOL + "] " + method + " is overloaded, and overloads share one tool name in"
        + " meters, decisions and the registry: give each tool its own name";
  }
}
