package dev.hfr.runtime.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/** The {@link ConfigSection}s on the class path, by key. */
final class ConfigSections {

  private ConfigSections() {}

  /**
   * The registered sections (the thread's context class loader first, as ServiceLoader does).
   *
   * @throws IllegalStateException when a section takes a key of the runtime's or two take the same key
   */
  static Map<String, ConfigSection<?>> registered() {
    Map<String, ConfigSection<?>> out = new LinkedHashMap<>();
    for (ConfigSection<?> s : ServiceLoader.load(ConfigSection.class)) {
      String key = s.key();
      if (ConfigReader.HFR_KEYS.contains(key) || key.isEmpty()) {
        throw new IllegalStateException("the configuration section " + s.getClass().getName() + " takes the key hfr."
            + key + ", which is the runtime's own");
      }
      ConfigSection<?> before = out.putIfAbsent(key, s);
      if (before != null && before.getClass() != s.getClass()) {
        throw new IllegalStateException("two configuration sections take the key hfr." + key + ": "
            + before.getClass().getName() + " and " + s.getClass().getName());
      }
    }
    return out;
  }
}
