package dev.hfr.runtime.config;

import java.util.List;

/**
 * A section of {@code hfr.yaml} that a module reads ({@code hfr.<key>}), registered through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/dev.hfr.runtime.config.ConfigSection}). The loader
 * accepts the key only when a section of that key is on the class path, hands it the section's tree, and
 * reports the problems it finds with the file's others — file, line, column and key, all at once. So a key
 * the file accepts always has a reader, and the module's {@link #keys()} list its tests hold to "every key
 * does something".
 *
 * <pre>{@code
 * hfr:
 *   retry: {...}
 *   mcp:                      # read by hfr-mcp's section
 *     servers: {...}
 * }</pre>
 *
 * @param <T> what the section reads into
 */
public interface ConfigSection<T> {

  /** The key under {@code hfr:}; not one of the runtime's own sections. */
  String key();

  /** The type of what the section reads (for {@link HfrConfig#section}). */
  Class<T> type();

  /**
   * Every key the section accepts, dotted below the section, with {@code *} for names the user chooses
   * (e.g. {@code servers.*.tools.*.risk}): the list the module's key-coverage test checks.
   */
  List<String> keys();

  /** What the configuration holds when the file has no such section. */
  T defaults();

  /**
   * Reads the section. Report every problem through {@code problems} (the result is then discarded and the
   * loader throws {@link HfrConfigException} with all of them).
   *
   * @param section the section's mapping (never {@code null} nor empty)
   */
  T read(YamlNode section, ConfigProblems problems);
}
