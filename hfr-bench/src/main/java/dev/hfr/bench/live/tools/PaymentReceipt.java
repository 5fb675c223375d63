package dev.hfr.bench.live.tools;

/** A charge. */
public record PaymentReceipt(String chargeId, String ref) {}
