package dev.hfr.junit;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A tool class as a user writes it: a read, a queryable write (R2) and an irreversible one (R3). */
public class Warehouse {

  /** What the tools really did, for the tests to check. */
  final List<String> shipments = new ArrayList<>();
  final List<String> notices = new ArrayList<>();

  @SideEffect(Risk.R0)
  public int stock(String sku) {
    return sku.length();
  }

  @SideEffect(value = Risk.R2, reconcile = "findShipment")
  public String ship(String sku, int quantity) {
    String id = "SHP-" + (shipments.size() + 1);
    shipments.add(id + ":" + sku + "x" + quantity);
    return id;
  }

  public Optional<String> findShipment(String sku, int quantity) {
    String suffix = ":" + sku + "x" + quantity;
    return shipments.stream().filter(s -> s.endsWith(suffix)).map(s -> s.substring(0, s.indexOf(':'))).findFirst();
  }

  @SideEffect(Risk.R3)
  @Criticality(Criticality.Level.HIGH)
  public void notifyCustomer(String text) {
    notices.add(text);
  }
}
