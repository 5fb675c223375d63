package dev.hfr.agent.internal.weave;

import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * Describes the {@code java.*} classes of the bootstrap class loader that the advice and the instrumented methods name
 * ({@code Object}, {@code Throwable}, {@code CompletableFuture}...) from the loaded classes, so that describing them
 * reads no class file from the runtime image (which searches its modules: more than the rest of a weaving). The parent of
 * every pool the weaver builds; any other name is left to the child pool, which reads the instrumented class and the
 * advice from their class files.
 */
final class LoadedJdkTypes extends TypePool.AbstractBase {

  static final TypePool INSTANCE = new LoadedJdkTypes();

  private static final String PACKAGE = "java.";

  private LoadedJdkTypes() {
    super(new TypePool.CacheProvider.Simple());
  }

  @Override
  protected Resolution doDescribe(String name) {
    // never a class the agent instruments: describing it must not load it (it may be the one being defined)
    if (name.startsWith(PACKAGE) && !name.equals(HttpClientInstrumentations.URL_CONNECTION_API)) {
      try {
        return new Resolution.Simple(TypeDescription.ForLoadedType.of(Class.forName(name, false, null)));
      } catch (ClassNotFoundException | LinkageError notInTheBootstrapLoader) {
        // left to the child pool
      }
    }
    return new Resolution.Illegal(name);
  }
}
