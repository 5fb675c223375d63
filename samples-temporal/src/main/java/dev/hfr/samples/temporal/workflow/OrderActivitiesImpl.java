package dev.hfr.samples.temporal.workflow;

import dev.hfr.samples.temporal.shop.Desk;
import dev.hfr.samples.temporal.shop.ShopTools;

/**
 * The activities as a Temporal user writes them: each calls its tool, nothing else. Given the plain {@link
 * ShopTools} they run on Temporal's retries alone; given {@code ShopTools_Recovering} (and the worker's {@code
 * HfrWorkerInterceptor}) every call goes through HFR — the code is the same.
 */
public final class OrderActivitiesImpl implements OrderActivities {

  private final ShopTools tools;
  private final Desk desk;

  public OrderActivitiesImpl(ShopTools tools, Desk desk) {
    this.tools = tools;
    this.desk = desk;
  }

  @Override
  public String search(String sku) {
    return call(() -> tools.search(sku));
  }

  // tag::activities[]
  @Override
  public String createOrder(String ref, String sku) {
    return call(() -> tools.createOrder(ref, sku));
  }

  @Override
  public String charge(String ref, long cents) {
    // No key of our own: HFR fills the @IdempotencyKey parameter with the write's ledger key.
    return call(() -> tools.charge(ref, cents, null));
  }
  // end::activities[]

  @Override
  public String sendEmail(String ref, String to) {
    return call(() -> tools.sendEmail(ref, to));
  }

  @Override
  public void askPerson(String ref, String question) {
    call(() -> {
      desk.ask(ref, question);
      return null;
    });
  }

  private interface ToolCall {
    String run() throws Exception;
  }

  private static String call(ToolCall call) {
    try {
      return call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
