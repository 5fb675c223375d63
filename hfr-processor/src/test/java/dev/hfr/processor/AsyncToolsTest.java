package dev.hfr.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.hfr.processor.Sources.compile;
import static dev.hfr.processor.Sources.source;
import static dev.hfr.processor.Sources.tools;

import com.google.common.truth.Truth;
import com.google.testing.compile.Compilation;
import dev.hfr.processor.internal.messages.AsyncMessages;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("[hfr/async-type] asynchronous tools: CompletionStage<R> and CompletableFuture<R> get an async proxy, other async types are refused")
class AsyncToolsTest {

  @Test
  @DisplayName("a CompletableFuture<R> write with an Optional<R> reconcile method compiles, and its proxy calls executeAsync")
  void completableFutureTool() throws IOException {
    JavaFileObject src = tools("""
        @SideEffect(value = Risk.R2, reconcile = "findOrder")
        public java.util.concurrent.CompletableFuture<String> createOrder(String sku) {
          return java.util.concurrent.CompletableFuture.completedFuture(sku);
        }

        public Optional<String> findOrder(String sku) { return Optional.empty(); }
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).succeededWithoutWarnings();
    String proxy = compilation.generatedSourceFile("com.acme.Tools_Recovering").orElseThrow().getCharContent(true).toString();
    Truth.assertThat(proxy).contains("return engine.executeAsync(CREATE_ORDER, new CreateOrderInvocation(sku));");
    Truth.assertThat(proxy).contains("extends AsyncToolInvocation<String>");
    Truth.assertThat(proxy).contains("public CompletionStage<String> start(String ledgerKey)");
    Truth.assertThat(proxy).contains(".resultType(String.class)");
  }

  @Test
  @DisplayName("a CompletionStage<R> read with an asynchronous rung compiles")
  void completionStageToolWithRung() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        @Degrade(to = "cached", level = DegradeLevel.L3)
        public java.util.concurrent.CompletionStage<Integer> stock(String sku) {
          return java.util.concurrent.CompletableFuture.completedFuture(1);
        }

        @SideEffect(Risk.R0)
        public java.util.concurrent.CompletionStage<Integer> cached(String sku) {
          return java.util.concurrent.CompletableFuture.completedFuture(0);
        }
        """);
    assertThat(compile(src)).succeededWithoutWarnings();
  }

  @Test
  @DisplayName("a Reactor Mono is a compile error on the method, saying what to return instead")
  void monoIsRefused() {
    JavaFileObject mono = source("reactor.core.publisher.Mono", """
        package reactor.core.publisher;
        public abstract class Mono<T> {}
        """);
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        public reactor.core.publisher.Mono<String> search(String q) { return null; }
        """);
    Compilation compilation = compile(src, mono);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(AsyncMessages.unsupported("search", "reactor.core.publisher.Mono<java.lang.String>",
        "which is an asynchronous type HFR has no driver for")).inFile(src).onLineContaining("Mono<String> search(");
    assertThat(compilation).hadErrorContaining("mono.toFuture()");
  }

  @Test
  @DisplayName("a plain Future is refused too: HFR would see the call succeed before the work ran")
  void futureIsRefused() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        public java.util.concurrent.Future<String> search(String q) { return null; }
        """);
    assertThat(compile(src)).hadErrorContaining("[" + AsyncMessages.ASYNC_TYPE + "] search returns java.util.concurrent.Future<java.lang.String>")
        .inFile(src).onLineContaining("Future<String> search(");
  }

  @Test
  @DisplayName("a stage without a result type cannot be verified or hashed")
  void wildcardStageIsRefused() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        public java.util.concurrent.CompletableFuture<?> search(String q) { return null; }
        """);
    assertThat(compile(src)).hadErrorContaining(AsyncMessages.stageWithoutResultType("search",
        "java.util.concurrent.CompletableFuture<?>")).inFile(src).onLineContaining("CompletableFuture<?> search(");
  }
}
