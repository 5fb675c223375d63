package dev.hfr.processor.internal.model;

import dev.hfr.annotations.Fault;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;

/**
 * The values of a {@code @Retry}, as written (they are checked by the validators, not here).
 *
 * @param mirror the annotation
 * @param maxAttempts total attempts, the first included
 * @param baseDelayMs the backoff's base delay
 * @param maxDelayMs the backoff's cap
 * @param on the retried fault classes, in the order written
 */
public record RetrySettings(AnnotationMirror mirror, int maxAttempts, long baseDelayMs, long maxDelayMs, List<Fault> on) {}
