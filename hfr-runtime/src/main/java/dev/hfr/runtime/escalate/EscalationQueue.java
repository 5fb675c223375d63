package dev.hfr.runtime.escalate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An in-memory queue of escalations for a human or a supervising loop to drain; also what tests use to
 * see what was escalated.
 */
public final class EscalationQueue implements EscalationHandler {

  private final ConcurrentLinkedQueue<EvidenceBundle> pending = new ConcurrentLinkedQueue<>();

  @Override
  public void escalate(EvidenceBundle evidence) {
    pending.add(evidence);
  }

  /** Takes every pending escalation, oldest first. */
  public List<EvidenceBundle> drain() {
    List<EvidenceBundle> out = new ArrayList<>();
    for (EvidenceBundle b; (b = pending.poll()) != null; ) {
      out.add(b);
    }
    return out;
  }

  /** The pending escalations, oldest first, left in the queue (for a status view). */
  public List<EvidenceBundle> pending() {
    return List.copyOf(pending);
  }

  /** How many escalations wait. */
  public int size() {
    return pending.size();
  }
}
