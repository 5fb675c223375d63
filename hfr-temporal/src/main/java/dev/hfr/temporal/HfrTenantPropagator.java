package dev.hfr.temporal;

import io.temporal.api.common.v1.Payload;
import io.temporal.common.context.ContextPropagator;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Carries the HFR tenant from the code that starts a workflow to its workflow and on to every activity it
 * schedules, as the {@value HfrWorkerInterceptor#TENANT_HEADER} header {@link HfrWorkerInterceptor} reads.
 * Register it on the client ({@code WorkflowClientOptions.setContextPropagators}) and start workflows within
 * {@link #withTenant}:
 *
 * <pre>{@code
 * WorkflowClient client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder()
 *     .setContextPropagators(List.of(new HfrTenantPropagator())).build());
 * HfrTenantPropagator.withTenant("acme", () -> WorkflowClient.start(orders::place, request));
 * }</pre>
 */
public final class HfrTenantPropagator implements ContextPropagator {

  private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

  /** Runs {@code work} with {@code tenant} as the tenant of the workflows it starts, and returns its result. */
  public static <T> T withTenant(String tenant, Supplier<T> work) {
    if (tenant == null || tenant.isBlank()) {
      throw new IllegalArgumentException("tenant must not be blank, was " + (tenant == null ? "null" : "'" + tenant + "'"));
    }
    Objects.requireNonNull(work, "work");
    String before = TENANT.get();
    TENANT.set(tenant);
    try {
      return work.get();
    } finally {
      if (before == null) {
        TENANT.remove();
      } else {
        TENANT.set(before);
      }
    }
  }

  @Override
  public String getName() {
    return HfrWorkerInterceptor.TENANT_HEADER;
  }

  @Override
  public Map<String, Payload> serializeContext(Object context) {
    if (!(context instanceof String tenant)) {
      return Map.of();
    }
    return DefaultDataConverter.STANDARD_INSTANCE.toPayload(tenant)
        .map(p -> Map.of(HfrWorkerInterceptor.TENANT_HEADER, p)).orElse(Map.of());
  }

  @Override
  public Object deserializeContext(Map<String, Payload> header) {
    Payload payload = header.get(HfrWorkerInterceptor.TENANT_HEADER);
    return payload == null ? null : DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class);
  }

  @Override
  public Object getCurrentContext() {
    return TENANT.get();
  }

  @Override
  public void setCurrentContext(Object context) {
    if (context instanceof String tenant) {
      TENANT.set(tenant);
    } else {
      TENANT.remove();
    }
  }
}
