package dev.hfr.samples.spring;

import dev.hfr.samples.spring.LoopbackShop.Service;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** At start-up ({@code sample.reproduce-on-start}, on in application.yml): the comparison, printed as a table. */
@Component
@ConditionalOnProperty("sample.reproduce-on-start")
class ReproductionOnStart implements ApplicationRunner {

  private final ShopAssistant assistant;
  private final double faultRate;
  private final int conversations;

  ReproductionOnStart(ShopAssistant assistant, @Value("${shop.fault-rate}") double faultRate,
      @Value("${sample.conversations}") int conversations) {
    this.assistant = assistant;
    this.faultRate = faultRate;
    this.conversations = conversations;
  }

  @Override
  public void run(ApplicationArguments args) {
    ShopAssistant.Reproduction r = assistant.reproduce(conversations, faultRate);
    System.out.printf("%n%d conversations each, services failing %.0f %% of requests (a third: answer dropped after the effect;"
        + " a third 503; a third 429 + Retry-After), the model calling a failed tool up to 3 times again:%n",
        r.conversations(), r.faultRate() * 100);
    System.out.printf("  %-28s %8s %8s %8s%n", "duplicates counted by", "orders", "charges", "e-mails");
    System.out.printf("  %-28s %8d %8d %8d%n", "the services, without HFR", r.duplicatesWithoutHfr().get(Service.ORDERS),
        r.duplicatesWithoutHfr().get(Service.PAYMENTS), r.duplicatesWithoutHfr().get(Service.MAIL));
    System.out.printf("  %-28s %8d %8d %8d%n", "the services, with HFR", r.duplicatesWithHfr().get(Service.ORDERS),
        r.duplicatesWithHfr().get(Service.PAYMENTS), r.duplicatesWithHfr().get(Service.MAIL));
    System.out.printf("  completed conversations: %d of %d with HFR (%d tool calls escalated to a human, the model told not to"
        + " call again), %d of %d without; circuit breakers opened: %d%n", r.completedWithHfr(), r.conversations(),
        r.escalatedByHfr(), r.completedWithoutHfr(), r.conversations(), r.breakersOpened());
    System.out.printf("  HFR retried %d failed calls inside the tools, each write with its idempotency key.%n", r.retriesByHfr());
    r.unfinishedWithHfr().forEach(answer -> System.out.println("  with HFR, unfinished: " + answer));
    System.out.println("Try: curl -s -XPOST localhost:8080/conversations -H 'content-type: application/json' -d"
        + " '{\"message\":\"Order 2 x SKU-42, reference c-1, e-mail ana@example.com\"}'");
    System.out.println("     curl -s localhost:8080/actuator/hfr");
  }
}
