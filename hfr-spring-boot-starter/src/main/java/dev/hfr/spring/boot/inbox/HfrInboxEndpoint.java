package dev.hfr.spring.boot.inbox;

import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.Inbox;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.PersonAnswer;
import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The inbox under Actuator: {@code GET /actuator/hfrinbox} (filters {@code tenant}, {@code tool}, {@code reason},
 * {@code state}: waiting by default, or all), {@code GET /actuator/hfrinbox/{id}}, and {@code POST
 * /actuator/hfrinbox/{id}} with {@code {"answer":"happened","reason":"...","result":"..."}}.
 *
 * <p>Answering needs an authenticated person in the role {@value #ROLE} (Spring Security: {@code
 * hasRole("HFR_INBOX")}); their name is recorded with the answer. Without an authenticated person the answer is refused
 * (401), never taken anonymously; Spring Security's CSRF protection covers browser sessions. Access is read-only until
 * {@code management.endpoint.hfrinbox.access=unrestricted}.
 */
@Endpoint(id = "hfrinbox", defaultAccess = Access.READ_ONLY)
public class HfrInboxEndpoint {

  /** The role a person needs to answer. */
  public static final String ROLE = "HFR_INBOX";

  private final Inbox inbox;

  public HfrInboxEndpoint(Inbox inbox) {
    this.inbox = inbox;
  }

  /** The items that pass the filters, oldest first. */
  @ReadOperation
  public List<Item> items(@Nullable String tenant, @Nullable String tool, @Nullable String reason, @Nullable String state) {
    return inbox.list(new InboxFilter(tenant, tool, reason, state(state))).stream().map(Item::of).toList();
  }

  /** One item, answered or not. */
  @ReadOperation
  public WebEndpointResponse<Object> item(@Selector String id) {
    return inbox.get(id).<WebEndpointResponse<Object>>map(i -> new WebEndpointResponse<>(Item.of(i)))
        .orElseGet(() -> new WebEndpointResponse<>(new Problem("not_found", "no inbox item " + id), 404));
  }

  /** Answers item {@code id} as the authenticated person. */
  @WriteOperation
  public WebEndpointResponse<Object> answer(@Selector String id, String answer, @Nullable String reason,
      @Nullable String result, SecurityContext security) {
    Principal person = security.getPrincipal();
    if (person == null) {
      return new WebEndpointResponse<>(new Problem("unauthenticated", "answering the inbox needs an authenticated person"
          + " in the role " + ROLE + ": secure /actuator/hfrinbox with Spring Security"), 401);
    }
    if (!security.isUserInRole(ROLE)) {
      return new WebEndpointResponse<>(new Problem("forbidden", person.getName() + " is not in the role " + ROLE), 403);
    }
    try {
      return new WebEndpointResponse<>(Item.of(inbox.answer(id, Answer.of(answer), person.getName(), reason, result)));
    } catch (IllegalArgumentException e) {
      return new WebEndpointResponse<>(new Problem("invalid", e.getMessage()), 400);
    } catch (InboxAnswerException e) {
      int status = switch (e.code()) {
        case "not_found" -> 404;
        case "conflict" -> 409;
        default -> 400;
      };
      return new WebEndpointResponse<>(new Problem(e.code(), e.getMessage()), status);
    }
  }

  private static ItemState state(String state) {
    if (state == null || state.isBlank()) {
      return ItemState.WAITING;
    }
    if (state.equalsIgnoreCase("all")) {
      return null;
    }
    try {
      return ItemState.valueOf(state.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown state '" + state + "': use waiting, answered, used, expired or all");
    }
  }

  /** A refused request: a stable code and what to do. */
  public record Problem(String error, String message) {}

  /**
   * An inbox item as the endpoint shows it (arguments only redacted, as the inbox holds them).
   *
   * @param id the item's id
   * @param kind escalation or approval
   * @param state waiting, answered, used or expired
   * @param tenant the task's tenant
   * @param taskId the task (conversation)
   * @param tool the tool
   * @param risk its side-effect risk
   * @param reason why a person is asked
   * @param ledgerKey the write's ledger key, or null
   * @param argsPreview the redacted arguments
   * @param evidence the evidence bundle (JSON)
   * @param createdAt when it was filed
   * @param expiresAt when an approval expires, or null
   * @param answer the answer, or null
   */
  public record Item(String id, String kind, String state, String tenant, String taskId, String tool, String risk,
      String reason, String ledgerKey, String argsPreview, String evidence, Instant createdAt, Instant expiresAt,
      Given answer) {

    static Item of(InboxItem i) {
      PersonAnswer a = i.answer();
      return new Item(i.id(), i.kind().name().toLowerCase(Locale.ROOT), i.state().name().toLowerCase(Locale.ROOT),
          i.tenant(), i.taskId(), i.tool(), i.risk(), i.reason(), i.ledgerKey(), i.argsPreview(), i.evidence(),
          i.createdAt(), i.expiresAt(), a == null ? null : new Given(a.answer().code(), a.by(), a.at(), a.reason(), a.result()));
    }
  }

  /**
   * A person's answer.
   *
   * @param answer its code
   * @param by who
   * @param at when
   * @param reason why
   * @param result the given result, or null
   */
  public record Given(String answer, String by, Instant at, String reason, String result) {}
}
