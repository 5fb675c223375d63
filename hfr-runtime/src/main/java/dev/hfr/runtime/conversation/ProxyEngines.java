package dev.hfr.runtime.conversation;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RecoveryEngine;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Modifier;
import java.util.Optional;

/**
 * The engine a generated {@code Foo_Recovering} proxy runs its calls through, for adapters that give a
 * conversation its task by default from nothing but the proxies they are handed. Read once per proxy when the
 * adapter registers its tools — never per call.
 */
public final class ProxyEngines {

  private ProxyEngines() {}

  /**
   * The {@link Hfr} engine of {@code proxy}: empty when it runs through another {@link RecoveryEngine}, or when the
   * proxy's package is not open to HFR (a named module that does not {@code opens} it; pass the engine's
   * conversation tasks to the adapter instead).
   */
  public static Optional<Hfr> of(Object proxy) {
    if (proxy == null) {
      return Optional.empty();
    }
    for (Field f : proxy.getClass().getDeclaredFields()) {
      if (RecoveryEngine.class.isAssignableFrom(f.getType()) && !Modifier.isStatic(f.getModifiers())) {
        try {
          f.setAccessible(true);
          return f.get(proxy) instanceof Hfr hfr ? Optional.of(hfr) : Optional.empty();
        } catch (InaccessibleObjectException | IllegalAccessException | SecurityException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }
}
