package dev.hfr.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.hfr.processor.Sources.compileStrict;
import static dev.hfr.processor.Sources.source;

import com.google.testing.compile.Compilation;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Safe tool classes compile with the processor, and their generated code compiles without a single
 * lint warning ({@code -Xlint:all -Werror}).
 */
class SafeClassesTest {

  @Test
  @DisplayName("a read-only tool class with a ladder, checked exceptions, primitives and varargs")
  void readOnlyToolsWithEverySignatureShape() {
    Compilation compilation = compileStrict(source("com.acme.Catalog", """
        package com.acme;

        import dev.hfr.annotations.*;
        import java.io.IOException;
        import java.util.List;

        public class Catalog {
          @SideEffect(Risk.R0)
          @Degrade(to = "priceFromCache", level = DegradeLevel.L4)
          @Criticality(Criticality.Level.LOW)
          public int price(String sku) throws IOException { return 1; }

          @SideEffect(Risk.R0)
          protected Integer priceFromCache(String sku) { return 0; }

          @SideEffect(Risk.R0)
          public List<String> tags(String... skus) { return List.of(skus); }

          @SideEffect(Risk.R0)
          <T extends Comparable<T>> T max(List<T> values) throws IOException, InterruptedException {
            return values.get(0);
          }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("com.acme.Catalog_Recovering");
    assertThat(compilation).generatedSourceFile("com.acme.Catalog_HfrCatalog");
  }

  @Test
  @DisplayName("a Dagger-injected class: the proxy's @Inject constructor mirrors it, qualifiers and scope included")
  void injectedClassWithQualifiersAndScope() {
    Compilation compilation = compileStrict(source("com.acme.Mailer", """
        package com.acme;

        import dev.hfr.annotations.*;
        import jakarta.inject.Inject;
        import jakarta.inject.Named;
        import jakarta.inject.Singleton;

        @Singleton
        public class Mailer {
          private final String host;

          @Inject
          public Mailer(@Named("smtp") String host) { this.host = host; }

          Mailer() { this("localhost"); }

          @SideEffect(value = Risk.R3, requiresApproval = true)
          @Verify(level = VerifyLevel.V3)
          public void send(String to, String body) {}

          String host() { return host; }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("com.acme.Mailer_Recovering").contentsAsUtf8String()
        .contains("@Inject\n  public Mailer_Recovering(RecoveryEngine engine, @Named(\"smtp\") String host)");
    assertThat(compilation).generatedSourceFile("com.acme.Mailer_Recovering").contentsAsUtf8String()
        .contains("@Singleton");
    assertThat(compilation).generatedSourceFile("com.acme.Mailer_HfrModule");
  }

  @Test
  @DisplayName("a static nested class, a generic class, and the registry listing both catalogs")
  void nestedAndGenericClassesShareOneServiceFile() {
    Compilation compilation = compileStrict(
        source("com.acme.Outer", """
            package com.acme;

            import dev.hfr.annotations.*;

            public class Outer {
              public static class Lookup {
                @SideEffect(Risk.R0)
                public String find(String id) { return id; }
              }
            }
            """),
        source("com.acme.Store", """
            package com.acme;

            import dev.hfr.annotations.*;
            import java.util.Optional;

            public class Store<V> {
              @SideEffect(value = Risk.R2, reconcile = "get")
              public V put(String key, V value) { return value; }

              public Optional<V> get(String key, V value) { return Optional.empty(); }
            }
            """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("com.acme.Outer_Lookup_Recovering");
    assertThat(compilation).generatedSourceFile("com.acme.Store_Recovering").contentsAsUtf8String()
        .contains("public final class Store_Recovering<V> extends Store<V>");
    assertThat(compilation)
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/services/dev.hfr.runtime.registry.ToolCatalog")
        .contentsAsUtf8String()
        .contains("com.acme.Outer_Lookup_HfrCatalog\ncom.acme.Store_HfrCatalog\n");
  }

  @Test
  @DisplayName("a reconcile method may return a subtype, and a compensate method undoes the write")
  void reconcileSubtypeAndCompensate() {
    Compilation compilation = compileStrict(source("com.acme.Orders", """
        package com.acme;

        import dev.hfr.annotations.*;
        import java.util.Optional;

        public class Orders {
          @SideEffect(value = Risk.R2, reconcile = "findOrder", compensate = "cancelOrder")
          public CharSequence createOrder(String sku, int quantity) { return sku; }

          public Optional<String> findOrder(String sku, int quantity) { return Optional.empty(); }

          @SideEffect(Risk.R1)
          @Idempotent
          public void cancelOrder(@IdempotencyKey String sku, int quantity) {}
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("com.acme.Orders_Recovering").contentsAsUtf8String()
        .contains("return Orders_Recovering.super.findOrder(this.sku, this.quantity).map(committed -> committed);");
  }
}
