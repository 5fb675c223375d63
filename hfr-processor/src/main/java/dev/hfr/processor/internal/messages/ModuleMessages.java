package dev.hfr.processor.internal.messages;

/** Tools in a named module (one with a {@code module-info.java}). */
public final class ModuleMessages {

  /** A named module provides its tool catalogs: {@code ServiceLoader} ignores META-INF/services there. */
  public static final String MODULE_PROVIDES = "hfr/module-provides";

  private ModuleMessages() {}

  public static String missingProvides(String module, String service, String catalogs) {
    return "[" + MODULE_PROVIDES + "] module " + module + " has HFR tools, but in a named module ServiceLoader"
        + " ignores META-INF/services, so ToolRegistry.load() (and the configuration check of Hfr.build())"
        + " would not find them: add to its module-info.java: provides " + service + " with " + catalogs + ";";
  }
}
