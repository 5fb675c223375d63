package dev.hfr.runtime.inbox;

/**
 * Which items {@link Inbox#list(InboxFilter)} returns; a {@code null} field matches everything.
 *
 * @param tenant only this tenant's items
 * @param tool only this tool's items
 * @param reason only items filed for this reason code
 * @param state only items in this state ({@link #WAITING} lists what waits for a person)
 */
public record InboxFilter(String tenant, String tool, String reason, ItemState state) {

  /** Every item waiting for a person. */
  public static final InboxFilter WAITING = new InboxFilter(null, null, null, ItemState.WAITING);

  /** Every item. */
  public static final InboxFilter ALL = new InboxFilter(null, null, null, null);

  public InboxFilter {
    tenant = blankToNull(tenant);
    tool = blankToNull(tool);
    reason = blankToNull(reason);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** Whether {@code item} passes this filter. */
  public boolean matches(InboxItem item) {
    return (tenant == null || tenant.equals(item.tenant())) && (tool == null || tool.equals(item.tool()))
        && (reason == null || reason.equals(item.reason())) && (state == null || state == item.state());
  }
}
