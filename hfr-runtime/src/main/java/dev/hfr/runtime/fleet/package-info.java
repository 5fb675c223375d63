/**
 * A fleet of workers sharing one retry budget per tenant and one view of each target's breaker, through the
 * PostgreSQL a fleet already shares for its ledger (DESIGN.md §8, docs/FLEET.md). {@link
 * dev.hfr.runtime.fleet.PostgresFleet} is the entry point; when the database cannot be reached each worker
 * falls back to its local share and rejoins when it returns.
 */
package dev.hfr.runtime.fleet;
