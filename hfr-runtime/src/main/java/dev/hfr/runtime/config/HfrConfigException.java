package dev.hfr.runtime.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration file that cannot be used, with every problem found (not just the first), each naming
 * the file, line, column and key, and saying why and how to fix it:
 * {@code hfr.yaml:12:5 hfr.retry.max_attempts_per_step: must be >= 1 (...), was 0}.
 */
public final class HfrConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * One problem of a configuration.
   *
   * @param source the file name (or the name given to {@link HfrConfigLoader#parse})
   * @param line 1-based line, or 0 when the problem has no place in the file
   * @param column 1-based column, or 0
   * @param key the dotted path of the key, e.g. {@code hfr.retry.max_attempts_per_step}
   * @param why what is wrong and how to fix it
   */
  public record Problem(String source, int line, int column, String key, String why) {

    @Override
    public String toString() {
      return source + (line > 0 ? ":" + line + ":" + column : "") + " " + key + ": " + why;
    }
  }

  private final transient List<Problem> problems;

  public HfrConfigException(List<Problem> problems) {
    super(format(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("an HfrConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  private static String format(List<Problem> problems) {
    if (problems.size() == 1) {
      return problems.get(0).toString();
    }
    return problems.size() + " problems in " + problems.get(0).source() + ":\n"
        + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n"));
  }

  /** Every problem found, in file order. */
  public List<Problem> problems() {
    return problems;
  }

  /** The first problem. */
  public Problem first() {
    return problems.get(0);
  }

  /** The file of the first problem. */
  public String source() {
    return first().source();
  }

  /** The line of the first problem (1-based, 0 when unknown). */
  public int line() {
    return first().line();
  }

  /** The column of the first problem (1-based, 0 when unknown). */
  public int column() {
    return first().column();
  }

  /** The key of the first problem. */
  public String key() {
    return first().key();
  }

  /** Why the first problem is one, and how to fix it. */
  public String why() {
    return first().why();
  }
}
