/**
 * How a class hands its package-private methods to the engine's internal classes in other packages without making
 * them API ({@link dev.hfr.runtime.internal.access.InstalledOnce}). Not API.
 */
package dev.hfr.runtime.internal.access;
