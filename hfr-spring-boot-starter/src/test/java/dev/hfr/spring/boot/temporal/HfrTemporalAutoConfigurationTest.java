package dev.hfr.spring.boot.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.config.HfrProperties;
import dev.hfr.spring.boot.config.HfrPropertiesException;
import dev.hfr.spring.boot.temporal.payments.PaymentService;
import dev.hfr.spring.boot.temporal.payments.PaymentWorkflow;
import dev.hfr.spring.boot.temporal.payments.PaymentsApplication;
import dev.hfr.temporal.HfrTenantPropagator;
import dev.hfr.temporal.HfrWorkerInterceptor;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.spring.boot.TemporalOptionsCustomizer;
import io.temporal.spring.boot.autoconfigure.RootNamespaceAutoConfiguration;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@DisplayName("With Temporal's Spring Boot starter, HFR's interceptor is on the workers it creates (its in-process test server)")
class HfrTemporalAutoConfigurationTest {

  private PaymentService payments;
  private ConfigurableApplicationContext app;

  @BeforeEach
  void startPayments() throws Exception {
    payments = PaymentService.start();
  }

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
    payments.close();
  }

  /** Starts the application as Spring Boot does (the ready event starts Temporal's workers); {@code args} win. */
  private WorkflowClient start(String... args) {
    return start(PaymentsApplication.class, args);
  }

  private WorkflowClient start(Class<?> extra, String... args) {
    app = new SpringApplicationBuilder(PaymentsApplication.class, extra)
        .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
        .initializers(context -> context.getBeanFactory().registerSingleton("paymentService", payments))
        .properties("spring.config.location=classpath:/temporal/payments.yml")
        .run(args);
    return app.getBean(WorkflowClient.class);
  }

  private static PaymentWorkflow workflow(WorkflowClient client, String id) {
    return client.newWorkflowStub(PaymentWorkflow.class, WorkflowOptions.newBuilder().setTaskQueue("payments")
        .setWorkflowId(id).setWorkflowExecutionTimeout(Duration.ofSeconds(60)).build());
  }

  @Test
  @DisplayName("with retry-unknown-outcomes, Temporal's retry of a charge whose answer was lost resends it under the same ledger key: charged once")
  void retriedActivityReusesTheLedgerKey() {
    WorkflowClient client = start("--hfr.temporal.retry-unknown-outcomes=true");
    payments.dropNextAnswers(1);

    String charge = workflow(client, "wf-retried").run("charge", "order-1");

    assertThat(charge).startsWith("charge-");
    assertThat(payments.keys()).as("one request per activity attempt").hasSize(2);
    assertThat(payments.keys().get(1)).as("the second attempt's key").isEqualTo(payments.keys().get(0));
    assertThat(payments.charges("order-1")).as("duplicates counted by the provider: none").isEqualTo(1);
  }

  @Test
  @DisplayName("by default the task is (default, the workflow execution) with the attempt's timeout less 200 ms, and a lost"
      + " charge (R1) is Temporal's next attempt under the same key, charged once")
  void defaults() {
    WorkflowClient client = start();
    assertThat(app.getBeansOfType(HfrWorkerInterceptor.class)).hasSize(1);

    assertThat(workflow(client, "wf-task").run("task", "")).matches("default\\|wf-task/[^|]+\\|2800\\|null\\|10");
    assertThat(workflow(client, "wf-task-retried").run("task-retried", "")).as("later attempts: one HFR retry")
        .endsWith("|1");

    payments.dropNextAnswers(1);
    assertThat(workflow(client, "wf-lost").run("charge", "order-2")).startsWith("charge-");
    assertThat(payments.keys()).as("resent by the next attempt").hasSize(2);
    assertThat(payments.keys().get(1)).as("under the same key").isEqualTo(payments.keys().get(0));
    assertThat(payments.charges("order-2")).isEqualTo(1);
  }

  @Test
  @DisplayName("hfr.temporal.enabled=false registers no interceptor: Temporal's retry charges the order again under a new key")
  void disabled() {
    WorkflowClient client = start("--hfr.temporal.enabled=false");
    assertThat(app.getBeansOfType(HfrWorkerInterceptor.class)).isEmpty();
    payments.dropNextAnswers(1);

    workflow(client, "wf-plain").run("charge", "order-3");

    assertThat(payments.keys()).hasSize(2);
    assertThat(payments.keys().get(1)).isNotEqualTo(payments.keys().get(0));
    assertThat(payments.charges("order-3")).as("a duplicate charge").isEqualTo(2);
  }

  @Test
  @DisplayName("tenant, task-per-run, deadline-margin-ms, criticality and later-attempt-retries shape the task; its limits are the tenant's")
  void settingsShapeTheTask() {
    WorkflowClient client = start(
        "--spring.config.location=classpath:/temporal/payments.yml,classpath:/temporal/shop-tenant.yml");
    PaymentWorkflow workflow = workflow(client, "wf-settings");

    String task = workflow.run("task", "");

    String runId = WorkflowStub.fromTyped(workflow).getExecution().getRunId();
    assertThat(task).isEqualTo("shop|wf-settings/" + runId + "|2500|HIGH|7");
    assertThat(workflow(client, "wf-settings-retried").run("task-retried", "")).endsWith("|0");
  }

  @Test
  @DisplayName("a tenant HfrTenantPropagator carries from the code that starts the workflow names the activity's task")
  void propagatedTenant() {
    WorkflowClient client = start(TenantPropagation.class);

    String task = HfrTenantPropagator.withTenant("globex", () -> workflow(client, "wf-globex").run("task", ""));

    assertThat(task).startsWith("globex|wf-globex/");
  }

  @Test
  @DisplayName("docs/TEMPORAL.md lists every hfr.temporal property and the version of Temporal's starter tested here")
  void everyPropertyDocumented() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "TEMPORAL.md"), StandardCharsets.UTF_8);
    for (RecordComponent component : HfrProperties.Temporal.class.getRecordComponents()) {
      String kebab = component.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
      assertThat(page).as("docs/TEMPORAL.md").contains("`hfr.temporal." + kebab + "`");
    }
    String tested = RootNamespaceAutoConfiguration.class.getPackage().getImplementationVersion();
    assertThat(page).as("the starter's version on the page").contains("<artifactId>temporal-spring-boot-starter</artifactId>"
        + "<version>" + tested + "</version>").contains("Tested with Temporal's starter " + tested + " on Spring Boot "
        + SpringBootVersion.getVersion());
  }

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrTemporalAutoConfiguration.class))
      .withBean(DecisionSink.class, DecisionSink::discarding)
      .withPropertyValues("hfr.idempotency.ledger=memory");

  @Test
  @DisplayName("the application's own HfrWorkerInterceptor bean replaces HFR's")
  void ownInterceptorWins() {
    runner.withUserConfiguration(OwnInterceptor.class).run(context ->
        assertThat(context).getBeanNames(HfrWorkerInterceptor.class).containsExactly("ownInterceptor"));
  }

  @Test
  @DisplayName("without Temporal's Spring Boot starter, or without hfr-temporal, there is no interceptor bean")
  void noTemporalStarterNoInterceptor() {
    runner.withClassLoader(new FilteredClassLoader("io.temporal.spring.boot.")).run(context -> {
      assertThat(context).hasSingleBean(Hfr.class);
      assertThat(context).doesNotHaveBean(HfrWorkerInterceptor.class);
    });
    runner.withClassLoader(new FilteredClassLoader(HfrWorkerInterceptor.class)).run(context -> {
      assertThat(context).hasSingleBean(Hfr.class);
      assertThat(context).doesNotHaveBean(HfrWorkerInterceptor.class);
    });
  }

  @Test
  @DisplayName("the auto-configuration is listed where Spring Boot finds it")
  void listedForSpringBoot() {
    List<String> candidates = new ArrayList<>();
    ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).forEach(candidates::add);
    assertThat(candidates).contains(HfrTemporalAutoConfiguration.class.getName());
  }

  @Test
  @DisplayName("invalid hfr.temporal values stop start-up, each named with the fix")
  void invalidValuesNameTheProperty() {
    runner.withPropertyValues("hfr.temporal.tenant= ", "hfr.temporal.later-attempt-retries=-1",
        "hfr.temporal.deadline-margin-ms=-5").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOfSatisfying(HfrPropertiesException.class, e ->
            assertThat(e.problems()).extracting(HfrPropertiesException.Problem::property).containsExactly(
                "hfr.temporal.tenant", "hfr.temporal.later-attempt-retries", "hfr.temporal.deadline-margin-ms")));
  }

  @Test
  @DisplayName("retry-unknown-outcomes is refused when the idempotency ledger is off, naming the property")
  void retryUnknownOutcomesNeedsTheLedger() {
    runner.withPropertyValues("hfr.temporal.retry-unknown-outcomes=true", "hfr.idempotency.enabled=false")
        .run(context -> assertThat(context).getFailure().rootCause()
            .isInstanceOfSatisfying(HfrPropertiesException.class, e -> {
              assertThat(e.problems()).singleElement().extracting(HfrPropertiesException.Problem::property)
                  .isEqualTo("hfr.temporal.retry-unknown-outcomes");
              assertThat(e.problems().get(0).why()).contains("hfr.idempotency.enabled=false");
            }));
  }

  /** The application's client options, as Temporal's starter lets it set them, carry the tenant header. */
  @Configuration(proxyBeanMethods = false)
  static class TenantPropagation {
    // tag::propagator[]
    @Bean
    TemporalOptionsCustomizer<WorkflowClientOptions.Builder> hfrTenantPropagation() {
      return options -> options.setContextPropagators(List.of(new HfrTenantPropagator()));
    }
    // end::propagator[]
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnInterceptor {
    @Bean
    HfrWorkerInterceptor ownInterceptor(Hfr hfr) {
      return HfrWorkerInterceptor.builder(hfr).tenant("own").build();
    }
  }
}
