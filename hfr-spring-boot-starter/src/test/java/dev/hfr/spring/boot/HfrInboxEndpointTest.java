package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.CallAwaitingApprovalException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.inbox.InboxWebhook;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.inbox.HfrInboxAutoConfiguration;
import dev.hfr.spring.boot.inbox.HfrInboxEndpoint;
import dev.hfr.spring.boot.shop.ReservationTools;
import dev.hfr.spring.boot.shop.ShopApplication;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The inbox in Spring Boot: the {@code hfrinbox} endpoint lists what waits and takes answers only from an authenticated
 * person in the role HFR_INBOX, recording who; an {@link InboxWebhook} bean posts a Slack-compatible body per new item;
 * {@code harness.inbox.waiting} is in the application's registry.
 */
class HfrInboxEndpointTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrInboxAutoConfiguration.class))
      .withUserConfiguration(ShopApplication.class)
      .withBean(DecisionSink.class, DecisionSink::discarding)
      .withPropertyValues("hfr.idempotency.ledger=memory", "management.endpoints.web.exposure.include=hfrinbox");

  private static SecurityContext person(String name, boolean inRole) {
    return new SecurityContext() {
      @Override
      public Principal getPrincipal() {
        return name == null ? null : () -> name;
      }

      @Override
      public boolean isUserInRole(String role) {
        return inRole && HfrInboxEndpoint.ROLE.equals(role);
      }
    };
  }

  private static void askForApproval(Hfr hfr, ReservationTools tools) {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conv-s").build())) {
      assertThatThrownBy(() -> tools.cancelAll("customer left")).isInstanceOf(CallAwaitingApprovalException.class);
    }
  }

  @Test
  void answersNeedAnAuthenticatedPersonInTheRoleAndRecordWho() {
    app.run(context -> {
      Hfr hfr = context.getBean(Hfr.class);
      askForApproval(hfr, context.getBean(ReservationTools.class));
      HfrInboxEndpoint endpoint = context.getBean(HfrInboxEndpoint.class);

      List<HfrInboxEndpoint.Item> waiting = endpoint.items(null, "ReservationTools.cancelAll", null, null);
      assertThat(waiting).singleElement().satisfies(i -> {
        assertThat(i.kind()).isEqualTo("approval");
        assertThat(i.argsPreview()).isEqualTo("reason=\"customer left\"");
      });
      String id = waiting.get(0).id();

      assertThat(endpoint.answer(id, "approve", null, null, person(null, false)).getStatus()).isEqualTo(401);
      assertThat(endpoint.answer(id, "approve", null, null, person("eve", false)).getStatus()).isEqualTo(403);
      WebEndpointResponse<Object> ok = endpoint.answer(id, "approve", "fine", null, person("ana", true));
      assertThat(ok.getStatus()).isEqualTo(200);
      assertThat(((HfrInboxEndpoint.Item) ok.getBody()).answer().by()).isEqualTo("ana");
      assertThat(endpoint.answer(id, "deny", "late", null, person("ana", true)).getStatus()).isEqualTo(409);

      assertThat(context.getBean(ReservationTools.class)).isNotNull();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conv-s").build())) {
        assertThat(context.getBean(ReservationTools.class).cancelAll("customer left")).isNotNull();
      }
    });
  }

  @Test
  void theWebhookPostsASlackCompatibleBodyForEachNewItemAndTheMeterCountsIt() throws Exception {
    List<String> posted = new CopyOnWriteArrayList<>();
    HttpServer slack = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    slack.createContext("/hook", exchange -> {
      posted.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    slack.start();
    try {
      URI hook = URI.create("http://127.0.0.1:" + slack.getAddress().getPort() + "/hook");
      app.withBean(InboxWebhook.class, () -> InboxWebhook.to(hook, URI.create("https://ops.example/inbox/")))
          .withBean(io.micrometer.core.instrument.MeterRegistry.class, io.micrometer.core.instrument.simple.SimpleMeterRegistry::new)
          .run(context -> {
            askForApproval(context.getBean(Hfr.class), context.getBean(ReservationTools.class));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (posted.isEmpty() && System.nanoTime() < until) {
              Thread.sleep(20);
            }
            assertThat(posted).singleElement().satisfies(body -> assertThat(body)
                .startsWith("{\"text\":\"An approval waits: ReservationTools.cancelAll").contains("https://ops.example/inbox/")
                .doesNotContain("customer left"));
            var registry = context.getBean(io.micrometer.core.instrument.MeterRegistry.class);
            assertThat(registry.get("harness.inbox.waiting").gauge().value()).isEqualTo(1.0);
          });
    } finally {
      slack.stop(0);
    }
  }
}
