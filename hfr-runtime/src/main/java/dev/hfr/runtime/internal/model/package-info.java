/**
 * Model-side recovery shared by the framework adapters: the rules a degradation ladder of chat models follows after a
 * classified failure (paper Tables 2, 5 and 11), so that LangChain4j's and Spring AI's decorators decide alike.
 */
package dev.hfr.runtime.internal.model;
