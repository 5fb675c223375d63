package dev.hfr.agent.internal.weave;

import dev.hfr.agent.AgentLog;
import java.io.IOException;
import net.bytebuddy.dynamic.ClassFileLocator;

/**
 * The last resort of the weaver's class file lookups: reading a class file through a class loader searches the
 * runtime image's modules and the class path, which costs more than the rest of a weaving. The weaver's type pools
 * describe the instrumented class and the advice from their own class files and {@code java.lang} from the loaded
 * classes, so this is reached only for a type the weaving unexpectedly needs; {@code -Dhfr.agent.debug=true} names it.
 */
final class LoggingLocator implements ClassFileLocator {

  private final ClassFileLocator delegate;
  private final String where;

  LoggingLocator(ClassFileLocator delegate, String where) {
    this.delegate = delegate;
    this.where = where;
  }

  @Override
  public Resolution locate(String name) throws IOException {
    AgentLog.debug("read the class file of " + name + " through " + where);
    return delegate.locate(name);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
