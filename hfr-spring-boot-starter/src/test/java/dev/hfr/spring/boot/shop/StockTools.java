package dev.hfr.spring.boot.shop;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import org.springframework.stereotype.Component;

/** A component-scanned tool class with constructor injection: the starter must hand out its generated proxy. */
@Component
public class StockTools {

  private final StockService stock;

  public StockTools(StockService stock) {
    this.stock = stock;
  }

  @SideEffect(Risk.R0)
  public String stockOf(String sku) {
    return stock.lookUp(sku);
  }
}
