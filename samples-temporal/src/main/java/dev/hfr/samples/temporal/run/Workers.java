package dev.hfr.samples.temporal.run;

import dev.hfr.runtime.Hfr;
import dev.hfr.samples.temporal.shop.Desk;
import dev.hfr.samples.temporal.shop.ShopTools;
import dev.hfr.samples.temporal.shop.ShopTools_Recovering;
import dev.hfr.samples.temporal.workflow.OrderActivitiesImpl;
import dev.hfr.samples.temporal.workflow.OrderWorkflowImpl;
import dev.hfr.temporal.HfrWorkerInterceptor;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.net.URI;
import java.time.Duration;

/** A worker of the order workflow: on Temporal's retries alone, or with HFR registered. */
public final class Workers {

  /** Held, so the level set on it stays: the sample prints its tables, not HFR's decision log of every call. */
  private static final java.util.logging.Logger HFR_LOG = java.util.logging.Logger.getLogger("dev.hfr");

  private Workers() {}

  /** Keeps HFR's decision events and notices out of the sample's output (warnings still show). */
  public static void quiet() {
    HFR_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  /** A client of the Temporal server on 127.0.0.1:{@code port}. */
  public static WorkflowClient client(int port) {
    return WorkflowClient.newInstance(WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port)
            // a worker JVM starting on a busy machine may take longer than the default 5 s to first connect
            .setSystemInfoTimeout(Duration.ofSeconds(30)).build()));
  }

  /**
   * Starts a worker polling {@code taskQueue}.
   *
   * @param hfr the engine, or {@code null} for Temporal's retries alone
   * @param retryUnknownOutcomes whether Temporal may retry an unknown write outcome (HFR reconciles it first)
   *     rather than the workflow asking a person
   */
  public static WorkerFactory start(WorkflowClient client, String taskQueue, URI shop, String name, Hfr hfr,
      boolean retryUnknownOutcomes) {
    // tag::worker[]
    // tag::worker-full[]
    WorkerFactoryOptions.Builder factory = WorkerFactoryOptions.newBuilder();
    ShopTools tools = new ShopTools(shop, name);
    if (hfr != null) {
      // The one change HFR asks of a Temporal application: the interceptor, and the generated proxy as the tools.
      factory.setWorkerInterceptors(HfrWorkerInterceptor.builder(hfr).tenant("shop")
          .retryUnknownOutcomes(retryUnknownOutcomes).build());
      tools = ShopTools_Recovering.create(hfr, shop, name);
    }
    WorkerFactory workers = WorkerFactory.newInstance(client, factory.build());
    // end::worker[]
    // A killed worker's sticky queue is never drained by the test server: send every workflow task to the shared queue.
    Worker worker = workers.newWorker(taskQueue, WorkerOptions.newBuilder()
        .setStickyQueueScheduleToStartTimeout(Duration.ZERO)
        // a workflow thread of a JVM starved of CPU (three workers on a busy machine) is slow, not deadlocked
        .setDefaultDeadlockDetectionTimeout(10_000).build());
    worker.registerWorkflowImplementationTypes(OrderWorkflowImpl.class);
    worker.registerActivitiesImplementations(new OrderActivitiesImpl(tools, new Desk(shop)));
    // end::worker-full[]
    workers.start();
    return workers;
  }
}
