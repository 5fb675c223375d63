package dev.hfr.temporal;

import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.InboxListener;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.util.Objects;

/**
 * Lets a workflow wait for a person instead of failing: every answer given in the inbox is signalled ({@value
 * #SIGNAL}, an {@link InboxAnswered}) to the workflow whose activity's call it answers — the HFR task of an activity
 * is its workflow execution ({@code workflowId}, or {@code workflowId/runId} with {@code taskPerRun}).
 *
 * <pre>{@code
 * hfr.inbox().onAnswered(InboxSignals.to(workflowClient));
 * // in the workflow: catch the escalated activity's failure, Workflow.await(() -> answered(details.ledgerKey())),
 * // then call the activity again: its call gets the person's answer
 * }</pre>
 *
 * A workflow that is gone (finished, or never a workflow) is skipped.
 */
public final class InboxSignals implements InboxListener {

  /** The signal's name. */
  public static final String SIGNAL = "hfrInboxAnswered";

  private static final System.Logger LOG = System.getLogger("dev.hfr.temporal");

  private final WorkflowClient client;

  private InboxSignals(WorkflowClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Signals through {@code client}. */
  public static InboxSignals to(WorkflowClient client) {
    return new InboxSignals(client);
  }

  @Override
  public void onAnswered(InboxItem item) {
    String task = item.taskId();
    int slash = task.indexOf('/');
    String workflowId = slash < 0 ? task : task.substring(0, slash);
    java.util.Optional<String> runId = slash < 0 ? java.util.Optional.empty() : java.util.Optional.of(task.substring(slash + 1));
    InboxAnswered answered = new InboxAnswered(item.id(), item.ledgerKey(), item.answer().answer().code(),
        item.answer().by(), item.answer().reason());
    try {
      client.newUntypedWorkflowStub(workflowId, runId, java.util.Optional.empty()).signal(SIGNAL, answered);
    } catch (WorkflowNotFoundException gone) {
      LOG.log(System.Logger.Level.DEBUG, "no running workflow " + task + " to tell of inbox item " + item.id());
    }
  }
}
