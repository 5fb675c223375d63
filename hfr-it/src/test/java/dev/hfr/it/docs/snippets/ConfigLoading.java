package dev.hfr.it.docs.snippets;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.nio.file.Path;

/** Loading hfr.yaml as docs/CONFIG.md shows it; {@code DocCodeTest} runs it. */
final class ConfigLoading {

  private ConfigLoading() {}

  static Hfr engine(Path file) {
    // tag::load[]
    HfrConfig config = HfrConfigLoader.load(file);     // throws HfrConfigException: every problem, with its line
    Hfr hfr = Hfr.builder().config(config).build();   // checks the file against your tools, or throws the same way
    // end::load[]
    return hfr;
  }
}
