package dev.hfr.temporal.shop;

import io.temporal.activity.ActivityInterface;

/** The activities of the test workflow. */
@ActivityInterface
public interface ShopActivities {

  /** Places the order, then charges it: a failing charge makes Temporal run the whole activity again. */
  String order(String ref, String sku);

  /** Sends the confirmation e-mail. */
  String email(String ref);

  /** Asks for a quote. */
  String quote(String sku);

  /**
   * The HFR task the activity runs in: {@code tenant|task id|deadline in ms|criticality|retry budget}; with
   * {@code failFirst} its first attempt fails, so the answer is the second attempt's.
   */
  String task(boolean failFirst);
}
