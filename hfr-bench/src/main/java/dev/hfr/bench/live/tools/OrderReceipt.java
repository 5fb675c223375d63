package dev.hfr.bench.live.tools;

/** A placed order. */
public record OrderReceipt(String orderId, String ref) {}
