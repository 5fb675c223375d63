package dev.hfr.spring.boot.ai.catalog;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;

/** A component-scanned Spring AI tool class with HFR annotations: the starter offers it to Spring AI, protected. */
@Component
public class CatalogTools {

  public final AtomicInteger refuseNext = new AtomicInteger();
  public final AtomicInteger calls = new AtomicInteger();

  @Tool(description = "The price of a product in cents")
  @SideEffect(Risk.R0)
  public long price(String sku) {
    calls.incrementAndGet();
    if (refuseNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new UncheckedIOException(new ConnectException("Connection refused"));
    }
    return 1990;
  }
}
