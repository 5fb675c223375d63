package dev.hfr.spring.boot.config;

import java.util.List;
import java.util.stream.Collectors;

/** {@code hfr.*} properties the runtime refuses: every problem at once, each under its property's name. */
public final class HfrPropertiesException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * One refused property.
   *
   * @param property the property's name, e.g. {@code hfr.retry.max-attempts-per-step}
   * @param origin where it was set, e.g. {@code class path resource [application.yml] - 7:28}, or {@code null}
   * @param why what is wrong and how to fix it
   */
  public record Problem(String property, String origin, String why) {
    @Override
    public String toString() {
      return property + ": " + why + (origin == null ? "" : " (set in " + origin + ")");
    }
  }

  private final transient List<Problem> problems;

  public HfrPropertiesException(List<Problem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  /** Every problem, in the order the runtime found them. */
  public List<Problem> problems() {
    return problems;
  }

  private static String message(List<Problem> problems) {
    String head = problems.size() == 1 ? "1 invalid HFR property" : problems.size() + " invalid HFR properties";
    return problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n", head + ":\n", ""));
  }
}
