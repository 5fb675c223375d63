package dev.hfr.spring.boot.ai.catalog;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import org.springframework.stereotype.Component;

/** A protected tool class without Spring AI's {@code @Tool} (written for another framework): not a Spring AI tool. */
@Component
public class PlainTools {

  @SideEffect(Risk.R0)
  public String ping() {
    return "pong";
  }
}
