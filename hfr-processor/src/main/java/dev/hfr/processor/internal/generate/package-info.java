/**
 * Writes the sources of a validated tool class {@code Foo}: {@code Foo_Recovering} (the proxy, its
 * descriptors and invocation classes), {@code Foo_HfrCatalog} (its registry entry) and, when Dagger is
 * on the class path, {@code Foo_HfrModule}.
 */
package dev.hfr.processor.internal.generate;
