package dev.hfr.samples.shop;

/**
 * A committed order.
 *
 * @param id the order service's id
 * @param customerRef the caller's reference, by which the order can be looked up
 * @param sku what was ordered
 * @param quantity how many
 */
public record Order(String id, String customerRef, String sku, int quantity) {

  static Order parse(String line) {
    String[] f = line.strip().split("\\|");
    return new Order(f[0], f[1], f[2], Integer.parseInt(f[3]));
  }
}
