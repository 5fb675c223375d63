/** What HFR needs from the Java module system when an application runs on the module path. */
package dev.hfr.runtime.internal.modules;
