package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxItem;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Two workers on one PostgreSQL ledger (a real server): the inbox is a table beside the ledger's, so what one worker
 * escalated the other lists and answers, and the first worker's re-call honours that answer.
 */
@DisplayName("The inbox on PostgreSQL is one for the whole fleet")
class InboxFleetTest {

  static EmbeddedPostgres postgres;
  private final ShopService shop = newShop();

  private static ShopService newShop() {
    try {
      return new ShopService();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @BeforeAll
  static void start() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stop() throws IOException {
    postgres.close();
  }

  @AfterEach
  void closeShop() {
    shop.close();
  }

  private static Hfr worker() {
    return Hfr.builder().ledgerDataSource(postgres.getPostgresDatabase()).build();
  }

  @Test
  @DisplayName("an e-mail escalated on worker A is answered on worker B and replayed by A's re-call; the answer is the same on both")
  void oneInboxForTwoWorkers() {
    try (Hfr a = worker(); Hfr b = worker(); TaskScope conversation = a.openTask(TaskSpec.builder("acme", "conv-pg").build())) {
      shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
      catchThrowableOfType(OutcomeUnknownException.class,
          () -> a.execute(ShopTools.SEND_MAIL, new ShopTools.SendMail(shop, "pia@example.com")));

      InboxItem seenOnB = b.inbox().list().stream().filter(i -> i.taskId().equals("conv-pg")).findFirst().orElseThrow();
      assertThat(a.inbox().get(seenOnB.id())).contains(seenOnB);
      b.inbox().answer(seenOnB.id(), Answer.HAPPENED, "ops@acme", "seen in the provider", "msg-pg-1");
      assertThatThrownBy(() -> a.inbox().answer(seenOnB.id(), Answer.DID_NOT_HAPPEN, "eve@acme", ""))
          .isInstanceOf(InboxAnswerException.class).hasMessageContaining("by ops@acme");

      assertThat(a.execute(ShopTools.SEND_MAIL, new ShopTools.SendMail(shop, "pia@example.com"))).isEqualTo("msg-pg-1");
      assertThat(a.inbox().get(seenOnB.id()).orElseThrow().answer()).isEqualTo(b.inbox().get(seenOnB.id()).orElseThrow().answer());
    }
    assertThat(shop.mailsByTo).containsEntry("pia@example.com", 1);
  }
}
