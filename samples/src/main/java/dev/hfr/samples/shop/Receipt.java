package dev.hfr.samples.shop;

/**
 * A committed payment.
 *
 * @param id the payment service's receipt id
 * @param orderId the order paid for
 * @param amountCents the amount charged
 */
public record Receipt(String id, String orderId, long amountCents) {

  static Receipt parse(String line) {
    String[] f = line.strip().split("\\|");
    return new Receipt(f[0], f[1], Long.parseLong(f[2]));
  }
}
