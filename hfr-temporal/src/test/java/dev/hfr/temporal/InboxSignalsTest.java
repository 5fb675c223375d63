package dev.hfr.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.temporal.shop.ConfirmationWorkflow;
import dev.hfr.temporal.shop.ConfirmationWorkflowImpl;
import dev.hfr.temporal.shop.ShopActivitiesImpl;
import dev.hfr.temporal.shop.ShopService;
import dev.hfr.temporal.shop.ShopTools_Recovering;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workflow waits for a person instead of failing: the e-mail's answer is dropped, HFR escalates the activity's call
 * into the inbox, the workflow waits for the {@value InboxSignals#SIGNAL} signal, a person answers "it happened", and
 * the activity's next call gets the provider's reference — one e-mail sent.
 */
@DisplayName("A Temporal workflow waits for the inbox's answer")
class InboxSignalsTest {

  @TempDir Path ledger;
  private ShopService shop;
  private Hfr hfr;
  private TestWorkflowEnvironment env;

  @BeforeEach
  void start() throws Exception {
    shop = ShopService.start();
    hfr = Hfr.builder().ledgerPath(ledger).build();
  }

  @AfterEach
  void stop() {
    if (env != null) {
      env.close();
    }
    hfr.close();
    shop.close();
  }

  @Test
  @DisplayName("the escalated e-mail waits for 'it happened' in the inbox; the activity's next call replays it, one e-mail sent")
  void waitsForTheAnswer() throws Exception {
    env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false)
        .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
            .setWorkerInterceptors(HfrWorkerInterceptor.builder(hfr).tenant("acme").build()).build())
        .build());
    Worker worker = env.newWorker("shop");
    worker.registerWorkflowImplementationTypes(ConfirmationWorkflowImpl.class);
    worker.registerActivitiesImplementations(new ShopActivitiesImpl(ShopTools_Recovering.create(hfr, shop.uri()), hfr));
    env.start();
    WorkflowClient client = env.getWorkflowClient();
    hfr.inbox().onAnswered(InboxSignals.to(client));
    shop.script("POST /emails", new ShopService.DropAfterCommit());

    ConfirmationWorkflow workflow = client.newWorkflowStub(ConfirmationWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue("shop").setWorkflowId("wf-confirm").setWorkflowExecutionTimeout(Duration.ofSeconds(60)).build());
    CompletableFuture<String> result = WorkflowClient.execute(workflow::confirm, "ref-9");

    InboxItem item = waitForItem();
    assertThat(item.taskId()).startsWith("wf-confirm");   // the workflow execution: its id (and run id)
    assertThat(result).isNotDone();
    hfr.inbox().answer(item.id(), Answer.HAPPENED, "ops", "the provider shows it", "email-ref-9-confirmed");

    assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo("email-ref-9-confirmed");
    assertThat(shop.emails("ref-9")).isEqualTo(1);
  }

  private InboxItem waitForItem() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < until) {
      List<InboxItem> waiting = hfr.inbox().list();
      if (!waiting.isEmpty()) {
        return waiting.get(0);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("nothing reached the inbox in 20 s");
  }
}
