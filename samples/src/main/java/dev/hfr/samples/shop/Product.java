package dev.hfr.samples.shop;

/**
 * A product found by a search.
 *
 * @param sku the stock-keeping unit
 * @param name the display name
 * @param priceCents the price in cents
 */
public record Product(String sku, String name, long priceCents) {

  static Product parse(String line) {
    String[] f = line.split("\\|");
    return new Product(f[0], f[1], Long.parseLong(f[2]));
  }
}
