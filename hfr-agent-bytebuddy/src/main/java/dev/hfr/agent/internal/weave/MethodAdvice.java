package dev.hfr.agent.internal.weave;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * One piece of advice: the declared methods it goes on (of the classes of its instrumentation), and the binary name of
 * the class holding its {@code @Advice.OnMethodEnter} and {@code @Advice.OnMethodExit} methods, which is read as a class
 * file and never loaded ({@code dev.hfr.agent.internal.advice}).
 */
record MethodAdvice(ElementMatcher<? super MethodDescription> methods, String adviceClass) {}
