/** Handing a call to a human or upstream system: the {@link dev.hfr.runtime.escalate.EvidenceBundle} and its handler. */
package dev.hfr.runtime.escalate;
