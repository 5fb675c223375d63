package dev.hfr.bench.live;

import dev.hfr.bench.live.tools.Completion;
import dev.hfr.bench.live.tools.EmailTools;
import dev.hfr.bench.live.tools.ModelTools;
import dev.hfr.bench.live.tools.OrderReceipt;
import dev.hfr.bench.live.tools.OrderTools;
import dev.hfr.bench.live.tools.PaymentTools;
import dev.hfr.bench.live.tools.SearchResult;
import dev.hfr.bench.live.tools.SearchTools;
import java.util.ArrayList;
import java.util.List;

/**
 * The live agent task: plan with the model, search, place an order, charge it and send the
 * confirmation — five tool calls through the recovering proxies, one of each risk level. It collects the
 * ids of the answers it accepted, so the services can say afterwards whether any was wrong.
 */
final class LiveTask {

  private final ModelTools model;
  private final SearchTools search;
  private final OrderTools orders;
  private final PaymentTools payments;
  private final EmailTools email;

  LiveTask(ModelTools model, SearchTools search, OrderTools orders, PaymentTools payments, EmailTools email) {
    this.model = model;
    this.search = search;
    this.orders = orders;
    this.payments = payments;
    this.email = email;
  }

  /** The business reference of task {@code task}: what the services count effects by. */
  static String ref(int task) {
    return "order-" + task;
  }

  /**
   * Runs task {@code task}; returns the ids of the answers it accepted. Throws whatever a tool call
   * threw (the engine's {@code ToolCallException}, or a failure of the agent's own code on a bad answer).
   */
  List<String> run(int task) {
    List<String> accepted = new ArrayList<>(2);
    String ref = ref(task);
    Completion plan = model.complete(task, "Plan the checkout of " + ref);
    accepted.add(plan.id());
    SearchResult found = search.search(task, "item " + (task % 40));
    accepted.add(found.id());
    String item = found.hits().get(0); // an unverified answer without results fails here, as an agent would
    OrderReceipt order = orders.placeOrder(task, ref, item, 1);
    payments.charge(null, task, ref, 1999);
    email.send(task, ref, "customer-" + task + "@example.test", "Order " + order.orderId() + " is confirmed: " + plan.content());
    return accepted;
  }
}
