package dev.hfr.runtime.internal.modules;

import java.util.List;

/**
 * What an application on the module path must read for HFR to run. HFR's jars are automatic modules (they carry
 * an {@code Automatic-Module-Name}, no descriptor), and an automatic module cannot declare what it requires: the
 * JDK's {@code java.sql} and {@code java.net.http}, and the explicit modules of Jackson and SQLite's driver, are
 * resolved only when the
 * application's own {@code module-info.java} requires them. Without this check the first call fails deep inside
 * with a {@code NoClassDefFoundError} (javax/sql/DataSource) or, worse, a classifier that quietly cannot read
 * an HTTP failure; with it, {@code Hfr.build()} names the lines to add.
 */
public final class ModuleRequirements {

  /** What the engine needs: its ledger and pools (java.sql), the classifier (java.net.http), the decision log. */
  public static final List<String> ENGINE = List.of("java.sql", "java.net.http", "com.fasterxml.jackson.databind");
  /** What the embedded ledger (the default) needs besides: its store of settled records is SQLite. */
  public static final List<String> EMBEDDED_LEDGER = List.of("org.xerial.sqlitejdbc");
  /** What reading {@code hfr.yaml} needs besides. */
  public static final List<String> CONFIG = List.of("com.fasterxml.jackson.dataformat.yaml");

  private ModuleRequirements() {}

  /**
   * Does nothing on the class path; on the module path, throws when a module of {@code needed} is not in HFR's
   * layer.
   *
   * @throws IllegalStateException naming each {@code requires} line to add
   */
  public static void check(List<String> needed) {
    Module hfr = ModuleRequirements.class.getModule();
    ModuleLayer layer = hfr.getLayer();
    if (!hfr.isNamed() || layer == null) {
      return;
    }
    List<String> missing = needed.stream().filter(name -> layer.findModule(name).isEmpty()).toList();
    if (!missing.isEmpty()) {
      StringBuilder lines = new StringBuilder();
      missing.forEach(name -> lines.append(" requires ").append(name).append(';'));
      throw new IllegalStateException("HFR runs on the module path, where its jars are automatic modules that cannot"
          + " require what they use; the modules " + missing + " are not resolved. Next step: add to your"
          + " module-info.java:" + lines + " (or pass --add-modules " + String.join(",", missing) + " to java);"
          + " every line a module-path application needs: docs/getting-started/modules.md");
    }
  }
}
