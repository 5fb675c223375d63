package dev.hfr.langchain4j;

import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.langchain4j.agent.tool.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * LangChain4j tools with HFR annotations: a read, a read with a cached fallback (an L3 rung), a queryable
 * write (R2) and an irreversible one (R3).
 */
public class OrderDesk {

  final List<String> orders = new ArrayList<>();
  final List<String> emails = new ArrayList<>();

  @Tool("Returns how many units of a product are in stock")
  @SideEffect(Risk.R0)
  public int checkStock(String sku) {
    return 17;
  }

  @Tool("Returns the current price of a product")
  @SideEffect(Risk.R0)
  @Degrade(to = "cachedPrice", level = DegradeLevel.L3)
  public String price(String sku) {
    return "12.50 EUR";
  }

  /** The fallback of {@link #price}: yesterday's price list. */
  @SideEffect(Risk.R0)
  public String cachedPrice(String sku) {
    return "12.00 EUR";
  }

  @Tool("Places an order and returns its id")
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(String sku, int quantity) {
    String id = "ORD-" + (orders.size() + 1);
    orders.add(id + " " + quantity + "x" + sku);
    return id;
  }

  public Optional<String> findOrder(String sku, int quantity) {
    String suffix = " " + quantity + "x" + sku;
    return orders.stream().filter(o -> o.endsWith(suffix)).map(o -> o.substring(0, o.indexOf(' '))).findFirst();
  }

  @Tool("Sends an e-mail to the customer")
  @SideEffect(Risk.R3)
  public String emailCustomer(String text) {
    emails.add(text);
    return "sent";
  }
}
