package dev.hfr.runtime.internal.access;

import java.util.Objects;

/**
 * The access one class hands to an internal class of another package: its package-private methods, which are no part
 * of its API, wrapped in an interface its class initialiser installs once. The internal class reads it through a
 * holder class of its own ({@code static final}, so the JIT folds the access into its calls), first after the
 * installing class has been initialised (there is no instance to call before).
 *
 * @param <T> the access's interface
 */
public final class InstalledOnce<T> {

  private final String installer;
  private T installed;

  /** @param installer the class whose initialiser installs the access, for the errors */
  public InstalledOnce(String installer) {
    this.installer = Objects.requireNonNull(installer, "installer");
  }

  /**
   * Called by the installing class's initialiser only.
   *
   * @throws IllegalStateException if an access was installed already
   */
  public synchronized void install(T access) {
    if (installed != null) {
      throw new IllegalStateException(installer + "'s access is installed already");
    }
    installed = Objects.requireNonNull(access, "access");
  }

  /**
   * The installed access, for the internal class's holder constant.
   *
   * @throws IllegalStateException if the installing class's initialiser has not installed it
   */
  public synchronized T get() {
    if (installed == null) {
      throw new IllegalStateException(installer + "'s class initialiser did not install its access");
    }
    return installed;
  }
}
