package dev.hfr.bench.live.tools;

/** A sent e-mail. */
public record EmailReceipt(String messageId, String ref) {}
