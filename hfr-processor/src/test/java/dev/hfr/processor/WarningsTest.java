package dev.hfr.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.hfr.processor.Sources.compile;
import static dev.hfr.processor.Sources.tools;

import com.google.testing.compile.Compilation;
import dev.hfr.processor.internal.messages.DegradeMessages;
import dev.hfr.processor.internal.messages.IdempotencyMessages;
import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.messages.ReconcileMessages;
import dev.hfr.processor.internal.messages.RetryMessages;
import dev.hfr.processor.internal.messages.RiskMessages;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** Legal but dubious combinations compile, with a warning on the annotation that looks wrong. */
class WarningsTest {

  private static void assertWarning(JavaFileObject src, String message, String line) {
    Compilation compilation = compile(src);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(message).inFile(src).onLineContaining(line);
  }

  @Test
  void idempotentOnAReadIsPointless() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        @Idempotent
        public String search(@IdempotencyKey String key) { return key; }
        """), IdempotencyMessages.idempotentRead("search"), "@Idempotent");
  }

  @Test
  void idempotentOnAReadWithoutAKeyIsOnlyTheWarningNotAnErrorAskingForAKey() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        @Idempotent
        public String search(String q) { return q; }
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(IdempotencyMessages.idempotentRead("search"))
        .inFile(src).onLineContaining("@Idempotent");
    assertThat(compilation).hadWarningCount(1);
  }

  @Test
  void idempotentOnAnR2WriteProbablyMeansR1() {
    assertWarning(tools("""
        @SideEffect(value = Risk.R2, reconcile = "find")
        @Idempotent
        public String create(@IdempotencyKey String key) { return key; }

        public Optional<String> find(String key) { return Optional.empty(); }
        """), IdempotencyMessages.idempotentWrite("create", "R2"), "@Idempotent");
  }

  @Test
  void aKeyWithoutIdempotentIsNeverPassed() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        public String search(@IdempotencyKey String key) { return key; }
        """), IdempotencyMessages.keyWithoutIdempotent("search"), "@IdempotencyKey String key");
  }

  @Test
  void retryWithOneAttemptOnAReadTurnsRetriesOff() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        @Retry(maxAttempts = 1)
        public String search(String q) { return q; }
        """), RetryMessages.retryDisabled("search", "R0"), "@Retry(maxAttempts = 1)");
  }

  @Test
  void retryWithOneAttemptOnAnR3IsRedundant() {
    assertWarning(tools("""
        @SideEffect(Risk.R3)
        @Retry(maxAttempts = 1)
        public void send(String to) {}
        """), RetryMessages.retryRedundant("send"), "@Retry(maxAttempts = 1)");
  }

  @Test
  void retryOnNoFaultRetriesNothing() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        @Retry(on = {})
        public String search(String q) { return q; }
        """), RetryMessages.retryOnNothing("search"), "@Retry(on = {})");
  }

  @Test
  void tooManyAttemptsStormDuringAnOutage() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        @Retry(maxAttempts = 25, maxDelayMs = 5000)
        public String search(String q) { return q; }
        """), RetryMessages.retryStorm("search", 25), "@Retry(maxAttempts = 25");
  }

  @Test
  void reconcileOnAReadIsNeverCalled() {
    assertWarning(tools("""
        @SideEffect(value = Risk.R0, reconcile = "find")
        public String search(String q) { return q; }

        public Optional<String> find(String q) { return Optional.empty(); }
        """), ReconcileMessages.reconcileOnRead("search"), "reconcile = \"find\"");
  }

  @Test
  void reconcileOnAnR3SuggestsR2() {
    assertWarning(tools("""
        @SideEffect(value = Risk.R3, reconcile = "find")
        public String send(String q) { return q; }

        public Optional<String> find(String q) { return Optional.empty(); }
        """), ReconcileMessages.reconcileOnIrreversible("send"), "reconcile = \"find\"");
  }

  @Test
  void compensateOnAReadHasNothingToUndo() {
    assertWarning(tools("""
        @SideEffect(value = Risk.R0, compensate = "undo")
        public String search(String q) { return q; }

        @SideEffect(Risk.R1)
        @Idempotent
        public void undo(@IdempotencyKey String q) {}
        """), ReconcileMessages.compensateOnRead("search"), "compensate = \"undo\"");
  }

  @Test
  void approvalOnAReadMakesEveryReadWait() {
    assertWarning(tools("""
        @SideEffect(value = Risk.R0, requiresApproval = true)
        public String search(String q) { return q; }
        """), RiskMessages.approvalOnRead("search"), "requiresApproval = true");
  }

  @Test
  void anL4RungAboveLowCriticalityNeedsAHuman() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        @Degrade(to = "cache", level = DegradeLevel.L4)
        public String search(String q) { return q; }

        @SideEffect(Risk.R0)
        public String cache(String q) { return q; }
        """), DegradeMessages.needsHuman("search", "cache", "MEDIUM (the default)"), "level = DegradeLevel.L4");
  }

  @Test
  void overloadedToolsShareOneName() {
    assertWarning(tools("""
        @SideEffect(Risk.R0)
        public String search(String q) { return q; }

        @SideEffect(Risk.R0)
        public String search(String q, int limit) { return q; }
        """), ProxyMessages.overloadedTool("search"), "public String search(String q, int limit)");
  }
}
