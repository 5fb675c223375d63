package dev.hfr.agent.instrumentation;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * One piece of advice: the declared methods it goes on, and the binary name of the class holding its
 * {@code @Advice.OnMethodEnter} and {@code @Advice.OnMethodExit} methods.
 */
public record MethodAdvice(ElementMatcher<? super MethodDescription> methods, String adviceClass) {}
