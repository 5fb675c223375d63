/**
 * JDK HTTP clients for the adapters that hand a library an {@code HttpClient.Builder}: they show each failed
 * response's status and headers ({@code Retry-After}) to HFR before the library turns the response into an
 * exception that drops them. Shared by hfr-langchain4j and hfr-mcp.
 */
package dev.hfr.runtime.internal.http;
