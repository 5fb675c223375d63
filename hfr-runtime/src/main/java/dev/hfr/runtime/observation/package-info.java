/**
 * Tool calls as Micrometer Observations (OpenTelemetry spans through a tracing bridge): {@link
 * dev.hfr.runtime.observation.ToolCallObservations}, named and tagged by {@link
 * dev.hfr.runtime.observation.DefaultToolCallObservationConvention} after {@link
 * dev.hfr.runtime.observation.HfrObservationDocumentation}. Switched on with {@code
 * Hfr.builder().observationRegistry(registry)}.
 */
package dev.hfr.runtime.observation;
