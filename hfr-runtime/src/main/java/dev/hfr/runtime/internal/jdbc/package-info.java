/** The connection pools HFR opens on JDBC URLs. */
package dev.hfr.runtime.internal.jdbc;
