package dev.hfr.agent.internal.telemetry;

import io.micrometer.common.util.internal.logging.InternalLogLevel;
import io.micrometer.common.util.internal.logging.InternalLogger;
import io.micrometer.common.util.internal.logging.InternalLoggerFactory;
import java.lang.reflect.Proxy;

/**
 * Micrometer's internal logging, for the agent's shaded copy: warnings and errors to stderr, nothing else.
 * Left alone, Micrometer would log through the application's SLF4J (or java.util.logging), starting the
 * application's logging from inside the agent before the application has configured it.
 */
public final class QuietMicrometerLogging extends InternalLoggerFactory {

  private QuietMicrometerLogging() {}

  /** Installs it; must run before any Micrometer class is used. */
  public static void install() {
    InternalLoggerFactory.setDefaultFactory(new QuietMicrometerLogging());
  }

  @Override
  protected InternalLogger newInstance(String name) {
    // a proxy: InternalLogger has some forty methods, and all but the warn/error ones do nothing here
    return (InternalLogger) Proxy.newProxyInstance(InternalLogger.class.getClassLoader(), new Class<?>[] {InternalLogger.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "name", "toString" -> "hfr-agent micrometer " + name;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "isWarnEnabled", "isErrorEnabled" -> true;
          case "isTraceEnabled", "isDebugEnabled", "isInfoEnabled" -> false;
          case "isEnabled" -> isLoud((InternalLogLevel) args[0]);
          case "warn", "error" -> print(args, 0);
          case "log" -> isLoud((InternalLogLevel) args[0]) ? print(args, 1) : null;
          default -> null;
        });
  }

  private static boolean isLoud(InternalLogLevel level) {
    return level == InternalLogLevel.WARN || level == InternalLogLevel.ERROR;
  }

  private static Object print(Object[] args, int messageIndex) {
    if (args != null && args.length > messageIndex) {
      System.err.println("[hfr-agent] micrometer: " + args[messageIndex]);
    }
    return null;
  }
}
