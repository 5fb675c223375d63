package dev.hfr.agent.internal.config;

import dev.hfr.annotations.Criticality;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The agent's options, parsed from the string after {@code -javaagent:hfr-agent.jar=} (or the attach
 * command's last argument): {@code key=value} pairs separated by commas, for example
 * {@code enforce=true,events=/tmp/hfr-events.jsonl,prometheus.port=9464,summary.interval=60s}.
 *
 * <p>Parsing never fails: an unknown key or a bad value is listed in {@link #problems()} (the agent
 * prints them once on stderr) and the default is kept, because a typo in an option must not stop the
 * application from starting.
 */
public final class AgentOptions {

  /** Every key, with its meaning (printed by {@code java -jar hfr-agent.jar help}). */
  public static final Map<String, String> KEYS = keys();

  private boolean enforce;
  private Path events;
  private boolean eventsForSuccesses;
  private int prometheusPort = -1;
  private String prometheusHost = "127.0.0.1";
  private Duration summaryInterval = Duration.ofSeconds(60);
  /** {@code null} for the default, MEDIUM: the enum is loaded only when the option is given or read. */
  private Criticality.Level criticality;
  private int maxHosts = 100;
  private int retryMaxAttempts = 3;
  private Duration retryBase = Duration.ofMillis(100);
  private Duration retryCap = Duration.ofSeconds(2);
  private Duration retryAfterMax = Duration.ofSeconds(10);
  private int retryBudget = 600;
  private final boolean[] clientEnabled = {true, true, true, true};
  private Watch watch = Watch.AUTO;
  private final List<String> problems = new ArrayList<>();

  private AgentOptions() {}

  /** The defaults: shadow mode, no events file, no endpoint, a summary every 60 s. */
  public static AgentOptions defaults() {
    return new AgentOptions();
  }

  /** Parses an options string; {@code null} or blank gives the defaults. */
  public static AgentOptions parse(String text) {
    AgentOptions o = new AgentOptions();
    if (text == null || text.isBlank()) {
      return o;
    }
    for (String pair : text.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        o.problems.add("option '" + pair.trim() + "' is not key=value; ignored");
        continue;
      }
      String key = pair.substring(0, eq).trim();
      String value = pair.substring(eq + 1).trim();
      if (!KEYS.containsKey(key)) {
        o.problems.add("unknown option '" + key + "'; ignored (known: " + String.join(", ", KEYS.keySet()) + ")");
        continue;
      }
      try {
        o.apply(key, value);
      } catch (IllegalArgumentException e) {
        o.problems.add("option " + key + "=" + value + ": " + e.getMessage() + "; the default is kept");
      }
    }
    if (o.retryBase.compareTo(o.retryCap) > 0) {
      o.problems.add("retry.base (" + o.retryBase.toMillis() + " ms) exceeds retry.cap (" + o.retryCap.toMillis() + " ms); both defaults are kept");
      o.retryBase = Duration.ofMillis(100);
      o.retryCap = Duration.ofSeconds(2);
    }
    return o;
  }

  private void apply(String key, String value) {
    switch (key) {
      case "enforce" -> enforce = bool(value);
      case "events" -> events = value.isEmpty() ? null : Path.of(value);
      case "events.successes" -> eventsForSuccesses = bool(value);
      case "prometheus.port" -> prometheusPort = intIn(value, 0, 65535);
      case "prometheus.host" -> prometheusHost = nonEmpty(value);
      case "summary.interval" -> summaryInterval = duration(value);
      case "criticality" -> criticality = parseEnum(value, v -> Criticality.Level.valueOf(v.toUpperCase(Locale.ROOT)));
      case "hosts.max" -> maxHosts = intIn(value, 1, 10_000);
      case "retry.max.attempts" -> retryMaxAttempts = intIn(value, 1, 10);
      case "retry.base" -> retryBase = duration(value);
      case "retry.cap" -> retryCap = duration(value);
      case "retry.after.max" -> retryAfterMax = duration(value);
      case "retry.budget" -> retryBudget = intIn(value, 0, 1_000_000);
      case "instrument.jdk-httpclient" -> clientEnabled[0] = bool(value);
      case "instrument.http-url-connection" -> clientEnabled[1] = bool(value);
      case "instrument.okhttp" -> clientEnabled[2] = bool(value);
      case "instrument.apache-httpclient5" -> clientEnabled[3] = bool(value);
      case "watch" -> watch = parseWatch(value);
      default -> throw new IllegalStateException("key listed in KEYS but not applied: " + key);
    }
  }

  private static Map<String, String> keys() {
    Map<String, String> k = new LinkedHashMap<>();
    k.put("enforce", "true: retry idempotent requests of every client but HttpURLConnection on T1/T2/T3 (default false: shadow, observe only)");
    k.put("events", "a file to append one JSON line per decision to (default: none)");
    k.put("events.successes", "true: also write an event for each successful request (default false)");
    k.put("prometheus.port", "serve the meters in Prometheus text format on this port, path /metrics (default: off; 0 = any free port)");
    k.put("prometheus.host", "the address the endpoint binds to (default 127.0.0.1)");
    k.put("summary.interval", "how often a summary line goes to stderr, e.g. 60s, 5m; 0s = never (default 60s)");
    k.put("criticality", "LOW, MEDIUM or HIGH: the criticality assumed for the shadow decisions (default MEDIUM)");
    k.put("hosts.max", "how many distinct host tag values before further hosts are tagged 'other' (default 100)");
    k.put("retry.max.attempts", "enforcement: attempts per request, the first included, 1-10 (default 3)");
    k.put("retry.base", "enforcement: the backoff's base delay (default 100ms)");
    k.put("retry.cap", "enforcement: the backoff's cap (default 2s)");
    k.put("retry.after.max", "enforcement: a longer Retry-After is not waited for; the response goes to the application (default 10s)");
    k.put("retry.budget", "enforcement: retries per minute the agent may make in this JVM, all hosts together (default 600)");
    k.put("instrument.jdk-httpclient", "false: leave java.net.http.HttpClient alone");
    k.put("instrument.http-url-connection", "false: leave HttpURLConnection alone");
    k.put("instrument.okhttp", "false: leave OkHttp alone");
    k.put("instrument.apache-httpclient5", "false: leave Apache HttpClient 5 alone");
    k.put("watch", "auto, all or jdk: whether the agent keeps watching class loading for OkHttp and Apache HttpClient 5 after"
        + " start-up, which costs CPU on every class the JVM loads; auto = only when one of them (or Spring Boot's nested-jar"
        + " launcher) is on the class path, all = always (a custom class loader loads them), jdk = never, the JDK's clients"
        + " only (default auto; on attach, auto watches)");
    return Collections.unmodifiableMap(k);
  }

  private static boolean bool(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  private static int intIn(String v, int min, int max) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a whole number");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("expected a number from " + min + " to " + max);
    }
    return n;
  }

  private static String nonEmpty(String v) {
    if (v.isEmpty()) {
      throw new IllegalArgumentException("expected a value");
    }
    return v;
  }

  private static Watch parseWatch(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "auto" -> Watch.AUTO;
      case "all" -> Watch.ALL;
      case "jdk" -> Watch.JDK;
      default -> throw new IllegalArgumentException("expected auto, all or jdk");
    };
  }

  private static <T> T parseEnum(String v, Function<String, T> parser) {
    try {
      return parser.apply(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("expected LOW, MEDIUM or HIGH");
    }
  }

  /** Parses {@code 250ms}, {@code 60s}, {@code 5m}, {@code 1h}; a unit is required. */
  static Duration duration(String v) {
    String s = v.toLowerCase(Locale.ROOT);
    int split = 0;
    while (split < s.length() && Character.isDigit(s.charAt(split))) {
      split++;
    }
    if (split == 0 || split == s.length()) {
      throw new IllegalArgumentException("expected a duration with a unit, e.g. 250ms, 60s, 5m");
    }
    long n = Long.parseLong(s.substring(0, split));
    return switch (s.substring(split)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> throw new IllegalArgumentException("unknown unit '" + s.substring(split) + "' (ms, s, m, h)");
    };
  }

  /** Whether enforcement is on (idempotent JDK HttpClient requests only). */
  public boolean enforce() { return enforce; }

  /** The JSON-lines events file, or {@code null} for none. */
  public Path events() { return events; }

  public boolean eventsForSuccesses() { return eventsForSuccesses; }

  /** The Prometheus endpoint's port, 0 for any free port, -1 when the endpoint is off. */
  public int prometheusPort() { return prometheusPort; }

  public String prometheusHost() { return prometheusHost; }

  /** The interval of the stderr summary; zero when off. */
  public Duration summaryInterval() { return summaryInterval; }

  public Criticality.Level criticality() { return criticality != null ? criticality : Criticality.Level.MEDIUM; }

  public int maxHosts() { return maxHosts; }

  public int retryMaxAttempts() { return retryMaxAttempts; }

  public Duration retryBase() { return retryBase; }

  public Duration retryCap() { return retryCap; }

  public Duration retryAfterMax() { return retryAfterMax; }

  /** Enforcement: retries per minute the agent may make in this JVM. */
  public int retryBudget() { return retryBudget; }

  /** Whether the client in bridge slot {@code client} is instrumented. */
  public boolean instruments(int client) { return clientEnabled[client]; }

  /** Whether the agent keeps watching class loading for the libraries' clients after start-up ({@code watch}). */
  public Watch watch() { return watch; }

  /** What was wrong with the options string (reported once on stderr), empty when nothing. */
  public List<String> problems() { return Collections.unmodifiableList(problems); }

  /**
   * The {@code watch} option. The JDK's clients are woven when their classes load, whatever it says; OkHttp and Apache
   * HttpClient classes may be loaded later by any class loader, and seeing them needs the agent's transformer to stay
   * registered once the JDK's clients are woven, so that the JVM calls it for every class it loads from then on.
   */
  public enum Watch {
    /** Watch when the system class loader can see one of the libraries' classes, or a nested-jar launcher; always on attach. */
    AUTO,
    /** Always watch. */
    ALL,
    /** Never watch: the JDK's clients only. */
    JDK
  }
}
