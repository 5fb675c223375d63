/**
 * What the model ladders of the framework adapters (LangChain4j's and Spring AI's {@code HfrChatModel} and their
 * streaming counterparts) tell their callers: each {@link dev.hfr.runtime.model.ModelDecision} taken about a model
 * call, and the {@link dev.hfr.runtime.model.ModelCallFailedException} a call ends with when no acceptable answer
 * could be had safely. The same types in both adapters, so code that handles a model failure does not depend on the
 * framework.
 */
package dev.hfr.runtime.model;
