package dev.hfr.runtime.config;

import java.util.List;

/**
 * Where a {@link ConfigSection} reports what is wrong with its section: each problem is named by file, line,
 * column and key, like the runtime's own, and all of them are thrown together once the file is read.
 */
public final class ConfigProblems {

  private final ConfigReader reader;

  ConfigProblems(ConfigReader reader) {
    this.reader = reader;
  }

  /** A bad value at {@code at}. */
  public void problem(YamlNode at, String why) {
    reader.problem(at, why);
  }

  /** A problem with the key of {@code at} (an unknown or misplaced key): reported at the key's place. */
  public void keyProblem(YamlNode at, String why) {
    reader.keyProblem(at, why);
  }

  /** Reports every key of {@code map} not in {@code known}, with a "did you mean" as for the runtime's keys. */
  public void checkKeys(YamlNode map, List<String> known) {
    reader.checkKeys(map, known);
  }

  /**
   * The mapping under {@code key}, or {@code null} when absent; an empty or non-mapping value is reported
   * (and {@code null} returned), as for the runtime's sections.
   */
  public YamlNode section(YamlNode map, String key) {
    return reader.section(map, key);
  }
}
