package dev.hfr.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.budget.TaskLimits;

import dev.hfr.runtime.Hfr;
import dev.hfr.temporal.shop.ShopActivitiesImpl;
import dev.hfr.temporal.shop.ShopService;
import dev.hfr.temporal.shop.ShopService.DropAfterCommit;
import dev.hfr.temporal.shop.ShopService.Status;
import dev.hfr.temporal.shop.ShopTools;
import dev.hfr.temporal.shop.ShopTools_Recovering;
import dev.hfr.temporal.shop.ShopWorkflow;
import dev.hfr.temporal.shop.ShopWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HfrWorkerInterceptor on Temporal's test server: one task per workflow, HFR's decisions as Temporal's")
class HfrWorkerInterceptorTest {

  /** A 500: the charge may have been applied (a 503 would prove it was not). */
  private static final Status SERVER_ERROR = new Status(500, Map.of(), "internal error");
  /** A 429 without Retry-After: proves the charge was not applied, and a later attempt may succeed. */
  private static final Status BUSY = new Status(429, Map.of(), "busy");

  @TempDir Path ledger;
  private ShopService shop;
  private Hfr hfr;
  private TestWorkflowEnvironment env;

  @BeforeEach
  void startShop() throws Exception {
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

  private WorkflowClient worker(boolean interceptor) {
    return worker(interceptor, b -> b);
  }

  private WorkflowClient worker(boolean interceptor,
      java.util.function.UnaryOperator<HfrWorkerInterceptor.Builder> settings) {
    TestEnvironmentOptions.Builder options = TestEnvironmentOptions.newBuilder().setUseTimeskipping(false)
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder()
            .setContextPropagators(List.of(new HfrTenantPropagator())).build());
    if (interceptor) {
      options.setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
          .setWorkerInterceptors(settings.apply(HfrWorkerInterceptor.builder(hfr).tenant("acme")).build()).build());
    }
    env = TestWorkflowEnvironment.newInstance(options.build());
    Worker worker = env.newWorker("shop");
    worker.registerWorkflowImplementationTypes(ShopWorkflowImpl.class);
    worker.registerActivitiesImplementations(new ShopActivitiesImpl(ShopTools_Recovering.create(hfr, shop.uri()), hfr));
    env.start();
    return env.getWorkflowClient();
  }

  private static ShopWorkflow workflow(WorkflowClient client, String id) {
    return client.newWorkflowStub(ShopWorkflow.class, WorkflowOptions.newBuilder().setTaskQueue("shop")
        .setWorkflowId(id).setWorkflowExecutionTimeout(Duration.ofSeconds(60)).build());
  }

  private static ApplicationFailure failureOf(Runnable run) {
    WorkflowFailedException failed = catchThrowableOfType(WorkflowFailedException.class, run::run);
    assertThat(failed).as("the workflow failed").isNotNull();
    assertThat(failed.getCause()).isInstanceOf(ActivityFailure.class);
    assertThat(failed.getCause().getCause()).isInstanceOf(ApplicationFailure.class);
    return (ApplicationFailure) failed.getCause().getCause();
  }

  @Test
  @DisplayName("the activity's task is (tenant from the header, the workflow execution), its deadline the attempt's timeout less the margin")
  void taskIsTheWorkflowExecution() {
    WorkflowClient client = worker(true);
    ShopWorkflow first = workflow(client, "wf-task");
    String plain = first.run("task", "");
    String named = HfrTenantPropagator.withTenant("globex", () -> workflow(client, "wf-tenant").run("task", ""));

    String runId = io.temporal.client.WorkflowStub.fromTyped(first).getExecution().getRunId();
    assertThat(plain).startsWith("acme|wf-task/" + runId + "|2800|");
    assertThat(named).startsWith("globex|wf-tenant/");
  }

  @Test
  @DisplayName("a new execution reusing a workflow id places its order anew; it does not meet the old execution's records")
  void reusedWorkflowIdIsANewTask() {
    WorkflowClient client = worker(true);

    String first = workflow(client, "wf-reused").run("order", "ref-8");
    String second = workflow(client, "wf-reused").run("order", "ref-8");

    assertThat(first).startsWith("order-ref-8 charge-");
    assertThat(second).as("not refused already_committed").startsWith("order-ref-8 charge-");
    assertThat(shop.orders("ref-8")).as("one order per execution").isEqualTo(2);
  }

  @Test
  @DisplayName("taskPerRun, deadlineMargin and criticality shape the activity's task")
  void settingsShapeTheTask() {
    WorkflowClient client = worker(true, b -> b.taskPerRun(true).deadlineMargin(Duration.ofMillis(500))
        .criticality(Criticality.Level.HIGH));
    ShopWorkflow workflow = workflow(client, "wf-settings");

    String[] task = workflow.run("task", "").split("\\|");

    String runId = io.temporal.client.WorkflowStub.fromTyped(workflow).getExecution().getRunId();
    assertThat(task[1]).isEqualTo("wf-settings/" + runId);
    assertThat(task[2]).isEqualTo("2500");
    assertThat(task[3]).isEqualTo("HIGH");
  }

  @Test
  @DisplayName("the first attempt has the limits' retry budget, later attempts laterAttemptRetries")
  void laterAttemptsRetryLess() {
    WorkflowClient client = worker(true, b -> b.limits(TaskLimits.defaults().toBuilder().maxRetries(7).build())
        .laterAttemptRetries(2));

    String first = workflow(client, "wf-first").run("task", "");
    String second = workflow(client, "wf-second").run("task-retried", "");

    assertThat(first.split("\\|")[4]).isEqualTo("7");
    assertThat(second.split("\\|")[4]).isEqualTo("2");
  }

  @Test
  @DisplayName("retryUnknownOutcomes lets Temporal retry an unknown write no person took (the handler failed): each"
      + " attempt asks again, none resends it")
  void unknownOutcomeRetriedWhenAsked() {
    hfr.close();
    hfr = Hfr.builder().ledgerPath(ledger).escalationHandler(evidence -> {
      throw new IllegalStateException("the inbox is down");
    }).build();
    WorkflowClient client = worker(true, b -> b.retryUnknownOutcomes(true));
    shop.script("POST /emails", new DropAfterCommit());

    ApplicationFailure failure = failureOf(() -> workflow(client, "wf-unknown").run("email", "ref-5"));

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.OUTCOME_UNKNOWN);
    assertThat(failure.isNonRetryable()).as("retried until Temporal's attempts ran out").isFalse();
    assertThat(shop.requests("POST /emails")).as("sent once, never again").isEqualTo(1);
  }

  @Test
  @DisplayName("by default too, an R1 charge whose outcome is unknown is Temporal's next attempt, under the same key: charged once")
  void unknownIdempotentWriteIsRetriedByDefault() {
    WorkflowClient client = worker(true);
    shop.script("POST /charges", SERVER_ERROR, SERVER_ERROR);

    assertThat(workflow(client, "wf-unknown-default").run("order", "ref-6")).startsWith("order-ref-6 charge-");
    assertThat(shop.requests("POST /charges")).isEqualTo(3);
    assertThat(shop.charges()).as("one key, one charge").isEqualTo(1);
  }

  @Test
  @DisplayName("an e-mail escalated after its answer was lost ends HfrEscalated even with retryUnknownOutcomes: sent once")
  void escalationIsNeverRetried() {
    WorkflowClient client = worker(true, b -> b.retryUnknownOutcomes(true));
    shop.script("POST /emails", new DropAfterCommit());

    ApplicationFailure failure = failureOf(() -> workflow(client, "wf-mail-retry").run("email", "ref-9"));

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.ESCALATED);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(shop.requests("POST /emails")).as("sent once, never again").isEqualTo(1);
  }

  @Test
  @DisplayName("retryUnknownOutcomes is refused for an engine whose ledger is off, naming the setting")
  void retryUnknownOutcomesNeedsTheLedger() {
    try (Hfr noLedger = Hfr.builder().ledgerPath(ledger.resolve("off"))
        .features(HfrFeatures.builder().idempotency(false).build()).build()) {
      assertThatThrownBy(() -> HfrWorkerInterceptor.builder(noLedger).retryUnknownOutcomes(true).build())
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("retryUnknownOutcomes");
    }
  }

  @Test
  @DisplayName("a retried activity finds its order in the ledger and does not place it again")
  void retriedActivityDoesNotResendItsWrite() {
    WorkflowClient client = worker(true);
    shop.script("POST /charges", BUSY, BUSY);   // the first attempt's two charges are refused: Temporal retries

    String result = workflow(client, "wf-order").run("order", "ref-1");

    assertThat(result).startsWith("order-ref-1 charge-");
    assertThat(shop.requests("POST /charges")).isEqualTo(3);
    assertThat(shop.requests("POST /orders")).as("orders sent").isEqualTo(1);
    assertThat(shop.orders("ref-1")).isEqualTo(1);
    assertThat(shop.charges()).isEqualTo(1);
  }

  @Test
  @DisplayName("without the interceptor the same retried activity places the order twice")
  void withoutTheInterceptorTheRetryPlacesItAgain() {
    WorkflowClient client = worker(false);
    shop.script("POST /charges", BUSY, BUSY);

    workflow(client, "wf-plain").run("order", "ref-2");

    assertThat(shop.orders("ref-2")).isEqualTo(2);
  }

  @Test
  @DisplayName("a dropped answer to an order is reconciled inside the attempt: one order, no activity retry")
  void droppedAnswerIsReconciled() {
    WorkflowClient client = worker(true);
    shop.script("POST /orders", new DropAfterCommit());

    assertThat(workflow(client, "wf-drop").run("order", "ref-3")).startsWith("order-ref-3");
    assertThat(shop.requests("POST /orders")).isEqualTo(1);
    assertThat(shop.requests("GET /orders")).isEqualTo(1);
    assertThat(shop.orders("ref-3")).isEqualTo(1);
  }

  @Test
  @DisplayName("an e-mail whose answer was lost fails the workflow as HfrEscalated, not retried, with the ledger key")
  void unknownOutcomeIsNotRetried() {
    WorkflowClient client = worker(true);
    shop.script("POST /emails", new DropAfterCommit());

    ApplicationFailure failure = failureOf(() -> workflow(client, "wf-mail").run("email", "ref-4"));

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.ESCALATED);
    assertThat(failure.isNonRetryable()).isTrue();
    HfrFailureDetails details = failure.getDetails().get(HfrFailureDetails.class);
    assertThat(details.tool()).isEqualTo("ShopTools.sendEmail");
    assertThat(details.ledgerKey()).isNotBlank();
    assertThat(details.sideEffect()).isTrue();
    assertThat(details.evidence()).contains("sendEmail");
    assertThat(shop.requests("POST /emails")).as("sent once, never again").isEqualTo(1);
    assertThat(shop.emails("ref-4")).isEqualTo(1);
  }

  @Test
  @DisplayName("a policy refusal (T8) fails the workflow as HfrRefused after one request")
  void refusalIsNotRetried() {
    WorkflowClient client = worker(true);
    shop.script("GET /quote", new Status(400, Map.of("Content-Type", "application/json"),
        "{\"error\":{\"type\":\"content_policy_violation\",\"message\":\"refused\"}}"));

    ApplicationFailure failure = failureOf(() -> workflow(client, "wf-refused").run("quote", "sku-9"));

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.REFUSED);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getDetails().get(HfrFailureDetails.class).fault()).isEqualTo("T8");
    assertThat(shop.requests("GET /quote")).isEqualTo(1);
  }

  @Test
  @DisplayName("an invalid request (T7) fails the workflow as a non-retryable HfrFailed after one request")
  void invalidRequestIsNotRetried() {
    WorkflowClient client = worker(true);
    shop.script("GET /quote", new Status(400, Map.of(), "invalid sku"));

    ApplicationFailure failure = failureOf(() -> workflow(client, "wf-invalid").run("quote", "sku-?"));

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.FAILED);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getDetails().get(HfrFailureDetails.class).fault()).isEqualTo("T7");
    assertThat(shop.requests("GET /quote")).isEqualTo(1);
  }

  @Test
  @DisplayName("a 429 whose Retry-After is longer than the attempt becomes Temporal's next retry delay")
  void retryAfterBecomesTheNextRetryDelay() {
    WorkflowClient client = worker(true);
    shop.script("GET /quote", new Status(429, Map.of("Retry-After", "3"), "slow down"));

    assertThat(workflow(client, "wf-429").run("quote", "sku-1")).isEqualTo("quote-sku-1");

    List<Long> times = shop.times("GET /quote");
    assertThat(times).as("one request in the first attempt, one in the second").hasSize(2);
    assertThat(TimeUnit.NANOSECONDS.toMillis(times.get(1) - times.get(0)))
        .as("the second came after Retry-After, not after Temporal's 100 ms").isGreaterThanOrEqualTo(2_900);
  }
}
