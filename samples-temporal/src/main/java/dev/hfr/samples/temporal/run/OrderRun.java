package dev.hfr.samples.temporal.run;

import dev.hfr.samples.temporal.shop.FlakyShop;
import dev.hfr.samples.temporal.workflow.OrderWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts a batch of order workflows, plays the person who answers the questions they put to the operations desk
 * (looks, then signals {@code retry}), and waits for them.
 */
public final class OrderRun {

  /**
   * What a run ended with; the duplicates are the services' own count.
   *
   * @param label the run's name
   * @param workflows workflows started
   * @param completed workflows that completed
   * @param escalations steps handed to the person (each answered with {@code retry})
   * @param duplicateOrders orders beyond one per workflow
   * @param duplicateCharges charges beyond one per workflow
   * @param duplicateEmails e-mails beyond one per workflow
   * @param seconds how long the batch took
   * @param questions what the workflows asked the person about: step, failure type and HFR's reason, and how often
   */
  public record Result(String label, int workflows, int completed, int escalations, int duplicateOrders,
      int duplicateCharges, int duplicateEmails, double seconds, Map<String, Integer> questions) {

    /** One row of the sample's table. */
    public String row() {
      return String.format("| %-40s | %3d/%-3d | %11d | %10d | %11d | %10d | %6.1f |", label, completed, workflows,
          escalations, duplicateOrders, duplicateCharges, duplicateEmails, seconds);
    }

    /** The table's header. */
    public static String header() {
      return "| run                                      | done    | escalations | dup orders | dup charges | dup emails |      s |\n"
          + "|------------------------------------------|---------|-------------|------------|-------------|------------|--------|";
    }
  }

  private OrderRun() {}

  /** Runs {@code n} workflows on {@code taskQueue} and waits at most {@code timeout} for them. */
  public static Result run(String label, WorkflowClient client, String taskQueue, FlakyShop shop, int n,
      Duration timeout) throws InterruptedException {
    long start = System.nanoTime();
    List<CompletableFuture<String>> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      OrderWorkflow workflow = client.newWorkflowStub(OrderWorkflow.class, WorkflowOptions.newBuilder()
          .setTaskQueue(taskQueue).setWorkflowId(taskQueue + "-" + i).build());
      WorkflowClient.start(workflow::place, "sku-" + i);
      results.add(WorkflowStub.fromTyped(workflow).getResultAsync(String.class));
    }
    int escalations = 0;
    Map<String, Integer> questions = new TreeMap<>();
    long deadline = start + timeout.toNanos();
    while (!results.stream().allMatch(CompletableFuture::isDone) && System.nanoTime() < deadline) {
      String question = shop.nextQuestion(200);
      if (question != null) {
        // The person reads the ticket, checks the shop's back office, then tells the workflow to run the step
        // again: HFR reconciles the write before anything is sent.
        escalations++;
        String workflowId = question.substring(0, question.indexOf('|'));
        questions.merge(about(question), 1, Integer::sum);
        client.newWorkflowStub(OrderWorkflow.class, workflowId).decide("retry");
      }
    }
    int completed = 0;
    for (CompletableFuture<String> result : results) {
      try {
        result.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        completed++;
      } catch (TimeoutException | java.util.concurrent.ExecutionException notCompleted) {
        // counted as not completed
      }
    }
    return new Result(label, n, completed, escalations, shop.duplicateOrders(), shop.duplicateCharges(),
        shop.duplicateEmails(), (System.nanoTime() - start) / 1e9, questions);
  }

  /** {@code createOrder HfrEscalated reconcile_unknown} of {@code <id>|#1 createOrder: HfrEscalated reconcile_unknown ledger key ...}. */
  private static String about(String question) {
    String[] words = question.substring(question.indexOf('|') + 1).split(" ");
    return words.length < 4 ? question : words[1].replace(":", "") + " " + words[2] + " " + words[3];
  }
}
