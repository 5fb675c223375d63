/**
 * The advice Byte Buddy inlines into the instrumented methods: templates, read as class files and never loaded
 * ({@code Advice.to(TypeDescription, ClassFileLocator)}). Each only hands a few values to {@code HfrBridge}, the one
 * agent class the instrumented code can see (it is in the bootstrap class loader); whatever the advice throws is
 * dropped where it is thrown ({@code suppress = Throwable.class}), so the application's call goes on as if the agent
 * were not there.
 */
package dev.hfr.agent.internal.advice;
