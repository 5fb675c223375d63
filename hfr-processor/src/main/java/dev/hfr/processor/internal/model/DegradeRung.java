package dev.hfr.processor.internal.model;

import dev.hfr.annotations.DegradeLevel;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;

/**
 * One {@code @Degrade} of a tool, in the order written.
 *
 * @param mirror the {@code @Degrade} annotation
 * @param to the target method's name
 * @param toValue the {@code to} value, for diagnostics
 * @param level the rung's level
 * @param levelValue the {@code level} value the user wrote, or {@code null} for the default
 */
public record DegradeRung(AnnotationMirror mirror, String to, AnnotationValue toValue, DegradeLevel level,
    AnnotationValue levelValue) {}
