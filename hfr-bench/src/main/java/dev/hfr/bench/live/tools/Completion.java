package dev.hfr.bench.live.tools;

/**
 * A model's answer: its id, text (null when the provider's message had no content), the digest the
 * provider says it answered, and the digest of the prompt that was asked.
 */
public record Completion(String id, String model, String content, String answerOf, String expectedDigest) {}
