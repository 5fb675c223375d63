package dev.hfr.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolDescriptor;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {

  /** A catalog as the processor generates one: a class listing its tools' descriptors. */
  static final class OrdersCatalog implements ToolCatalog {
    @Override
    public List<ToolDescriptor> tools() {
      return List.of(
          ToolDescriptor.builder("com.acme.Orders", "search", Risk.R0)
              .parameters("query")
              .degradeTo("searchCache", DegradeLevel.L4, Risk.R0)
              .build(),
          ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2)
              .parameters("sku")
              .reconcile("findOrder")
              .verify(VerifyLevel.V1)
              .build(),
          ToolDescriptor.builder("com.acme.Orders", "deployProd", Risk.R3)
              .requiresApproval(true)
              .verify(VerifyLevel.V3)
              .build());
    }
  }

  @Test
  void rendersTheArticlesRegistryMetadataPerTool() {
    String yaml = ToolRegistry.of(List.of(new OrdersCatalog())).render();

    assertThat(yaml).contains("""
          - name: Orders.deployProd
            class: com.acme.Orders
            risk_level: R3
            read_only: false
            idempotent: false
            reversible: no
            requires_approval: true
            requires_verification: true
            reconcile: null
            compensate: null
            degrade: []
        """);
    assertThat(yaml).contains("""
            reconcile: findOrder
        """);
    assertThat(yaml).contains("""
            degrade:
              - {to: searchCache, level: L4, risk: R0}
        """);
  }

  @Test
  void findsToolsByName() {
    ToolRegistry registry = ToolRegistry.of(List.of(new OrdersCatalog()));

    assertThat(registry.tools()).hasSize(3);
    assertThat(registry.find("Orders.createOrder")).get().extracting(ToolDescriptor::reconcileMethod).isEqualTo("findOrder");
    assertThat(registry.find("Orders.nothing")).isEmpty();
  }

  @Test
  void loadsNothingWhereNoCatalogIsListed() throws Exception {
    try (URLClassLoader empty = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertThat(ToolRegistry.load(empty).tools()).isEmpty();
    }
  }
}
