package dev.hfr.processor.internal.model;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;

/**
 * A {@code @Timeout}, as written (checked by the validators, not here).
 *
 * @param mirror the annotation
 * @param on the method or class that carries it
 * @param ms the bound of one attempt, in milliseconds
 */
public record TimeoutSetting(AnnotationMirror mirror, Element on, long ms) {}
