package dev.hfr.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.hfr.processor.Sources.compile;
import static dev.hfr.processor.Sources.source;
import static dev.hfr.processor.Sources.tools;

import com.google.common.truth.Truth;
import com.google.testing.compile.Compilation;
import dev.hfr.annotations.Fault;
import dev.hfr.processor.internal.messages.DegradeMessages;
import dev.hfr.processor.internal.messages.IdempotencyMessages;
import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.messages.ReconcileMessages;
import dev.hfr.processor.internal.messages.RetryMessages;
import dev.hfr.processor.internal.messages.RiskMessages;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The nine compile-time rules of DESIGN §4: each violation fails the build with its message on the line
 * the user has to change. Messages come from the processor's message classes, never copied.
 */
class CompileTimeRulesTest {

  @Nested
  @DisplayName("rule 1 [hfr/explicit-risk]: every public method declares its risk")
  class ExplicitRisk {

    @Test
    void aPublicMethodWithoutSideEffectIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          public String search(String q) { return q; }

          public String helper(String q) { return q; }
          """);
      Compilation compilation = compile(src);
      assertThat(compilation).failed();
      assertThat(compilation).hadErrorContaining(RiskMessages.missingSideEffect("helper"))
          .inFile(src).onLineContaining("public String helper(");
      assertThat(compilation).hadErrorCount(1);
    }

    @Test
    void aToolAnnotationWithoutSideEffectIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          public String search(String q) { return q; }

          @Retry(maxAttempts = 2)
          String fetch(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RiskMessages.annotatedWithoutSideEffect("fetch", "Retry"))
          .inFile(src).onLineContaining("@Retry(maxAttempts = 2)");
    }

    @Test
    void reconcileMethodsNonPublicMethodsAndObjectOverridesNeedNoRisk() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public String createOrder(String sku) { return sku; }

          public Optional<String> findOrder(String sku) { return Optional.empty(); }

          String helper() { return ""; }

          public static Tools standard() { return new Tools(); }

          @Override
          public String toString() { return "Tools"; }
          """);
      assertThat(compile(src)).succeededWithoutWarnings();
    }
  }

  @Nested
  @DisplayName("rule 2 [hfr/irreversible-retry]: R3 is never retried nor degraded")
  class IrreversibleRetry {

    @Test
    void retryingAnR3MethodIsAnErrorOnMaxAttempts() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R3)
          @Retry(maxAttempts = 3)
          public void sendEmail(String to) {}
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.irreversibleRetry("sendEmail"))
          .inFile(src).onLineContaining("@Retry(maxAttempts = 3)");
    }

    @Test
    void theDefaultRetryOnR3IsAnErrorOnTheAnnotation() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R3)
          @Retry
          public void sendEmail(String to) {}
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.irreversibleRetry("sendEmail"))
          .inFile(src).onLineContaining("@Retry");
    }

    @Test
    void degradingAnR3MethodIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R3)
          @Degrade(to = "sendSms", level = DegradeLevel.L2)
          public void sendEmail(String to) {}

          @SideEffect(Risk.R3)
          public void sendSms(String to) {}
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.irreversibleDegrade("sendEmail", "sendSms"))
          .inFile(src).onLineContaining("@Degrade(to = \"sendSms\"");
    }
  }

  @Nested
  @DisplayName("rule 3 [hfr/reconcile-required]: R2 writes can be reconciled")
  class ReconcileRequired {

    @Test
    void anR2WithoutReconcileIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R2)
          public String createOrder(String sku) { return sku; }
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.missing("createOrder", "java.lang.String"))
          .inFile(src).onLineContaining("@SideEffect(Risk.R2)");
    }

    @Test
    void aMissingReconcileMethodIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2,
              reconcile = "findOrdr")
          public String createOrder(String sku) { return sku; }
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.notFound("createOrder", "findOrdr", "Tools"))
          .inFile(src).onLineContaining("reconcile = \"findOrdr\"");
    }

    @Test
    @DisplayName("a misspelt reconcile name is one error, with the method it meant, not a second on that method")
    void aMisspeltReconcileNameIsOneErrorNamingTheMethodItMeant() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrdr")
          public String createOrder(String sku) { return sku; }

          public Optional<String> findOrder(String sku) { return Optional.empty(); }
          """);
      Compilation compilation = compile(src);
      assertThat(compilation)
          .hadErrorContaining(ReconcileMessages.notFound("createOrder", "findOrdr", "Tools", "findOrder"))
          .inFile(src).onLineContaining("reconcile = \"findOrdr\"");
      assertThat(compilation).hadErrorContaining("did you mean reconcile = \"findOrder\"?");
      assertThat(compilation).hadErrorCount(1);
    }

    @Test
    void aReconcileMethodWithOtherParametersIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public String createOrder(String sku, int quantity) { return sku; }

          public Optional<String> findOrder(String sku) { return Optional.empty(); }
          """);
      assertThat(compile(src)).hadErrorContaining(
              ReconcileMessages.wrongParameters("createOrder", "findOrder", "java.lang.String sku, int quantity"))
          .inFile(src).onLineContaining("reconcile = \"findOrder\"");
    }

    @Test
    void aReconcileMethodReturningNoOptionalIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public String createOrder(String sku) { return sku; }

          public boolean findOrder(String sku) { return false; }
          """);
      assertThat(compile(src)).hadErrorContaining(
              ReconcileMessages.wrongReturn("createOrder", "findOrder", "boolean", "java.lang.String"))
          .inFile(src).onLineContaining("reconcile = \"findOrder\"");
    }

    @Test
    void aReconcileMethodOfAnotherResultTypeIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public String createOrder(String sku) { return sku; }

          public Optional<Integer> findOrder(String sku) { return Optional.empty(); }
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.wrongReturn("createOrder", "findOrder",
          "java.util.Optional<java.lang.Integer>", "java.lang.String"));
    }

    @Test
    void aVoidR2WriteIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public void createOrder(String sku) {}

          public Optional<String> findOrder(String sku) { return Optional.empty(); }
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.voidWrite("createOrder"))
          .inFile(src).onLineContaining("reconcile = \"findOrder\"");
    }

    @Test
    void aPrivateReconcileMethodIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R2, reconcile = "findOrder")
          public String createOrder(String sku) { return sku; }

          private Optional<String> findOrder(String sku) { return Optional.empty(); }
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.notCallable("createOrder", "findOrder", "private"));
    }

    @Test
    void aMissingCompensateMethodIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R3, compensate = "refund")
          public void transfer(String account) {}
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.compensateNotFound("transfer", "refund", "Tools"))
          .inFile(src).onLineContaining("compensate = \"refund\"");
    }

    @Test
    void aCompensateMethodWithoutRiskIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R3, compensate = "refund")
          public void transfer(String account) {}

          void refund(String account) {}
          """);
      assertThat(compile(src)).hadErrorContaining(ReconcileMessages.compensateWithoutRisk("transfer", "refund"));
    }
  }

  @Nested
  @DisplayName("rule 4 [hfr/idempotency-key]: R1 is @Idempotent with one String key")
  class IdempotencyKey {

    @Test
    void anR1WithoutIdempotentIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R1)
          public String charge(String order) { return order; }
          """);
      assertThat(compile(src)).hadErrorContaining(IdempotencyMessages.r1WithoutIdempotent("charge"))
          .inFile(src).onLineContaining("@SideEffect(Risk.R1)");
    }

    @Test
    void idempotentWithoutAKeyIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R1)
          @Idempotent
          public String charge(String order) { return order; }
          """);
      assertThat(compile(src)).hadErrorContaining(IdempotencyMessages.noKey("charge"))
          .inFile(src).onLineContaining("@Idempotent");
    }

    @Test
    void twoKeysAreAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R1)
          @Idempotent
          public String charge(@IdempotencyKey String a, @IdempotencyKey String b) { return a; }
          """);
      assertThat(compile(src)).hadErrorContaining(IdempotencyMessages.severalKeys("charge", 2))
          .inFile(src).onLineContaining("@Idempotent");
    }

    @Test
    void aKeyThatIsNoStringIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R1)
          @Idempotent
          public String charge(String order,
              @IdempotencyKey long key) { return order; }
          """);
      assertThat(compile(src)).hadErrorContaining(IdempotencyMessages.keyNotString("charge", "key", "long"))
          .inFile(src).onLineContaining("@IdempotencyKey long key");
    }
  }

  @Nested
  @DisplayName("rule 5 [hfr/retry-settings]: retry settings are meaningful")
  class RetrySettings {

    @Test
    void retryingAPermanentErrorIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Retry(maxAttempts = 3,
              on = {Fault.T1, Fault.T7})
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.neverRetriedFault("search", Fault.T7))
          .inFile(src).onLineContaining("on = {Fault.T1, Fault.T7}");
    }

    @Test
    void retryingAPolicyRefusalIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Retry(on = Fault.T8)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.neverRetriedFault("search", Fault.T8))
          .inFile(src).onLineContaining("@Retry(on = Fault.T8)");
    }

    @Test
    void zeroAttemptsAreAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Retry(maxAttempts = 0)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.maxAttemptsBelowOne("search", 0))
          .inFile(src).onLineContaining("@Retry(maxAttempts = 0)");
    }

    @Test
    void aNegativeDelayIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Retry(baseDelayMs = -5)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.negativeDelay("search", "baseDelayMs", -5))
          .inFile(src).onLineContaining("@Retry(baseDelayMs = -5)");
    }

    @Test
    void aBaseDelayAboveTheCapIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Retry(baseDelayMs = 5000,
              maxDelayMs = 1000)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(RetryMessages.baseAboveMax("search", 5000, 1000))
          .inFile(src).onLineContaining("@Retry(baseDelayMs = 5000");
    }
  }

  @Nested
  @DisplayName("rule 6 [hfr/degrade-ladder]: every rung is a compatible, no riskier method")
  class DegradeLadder {

    @Test
    void aMissingTargetIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "searchMirror")
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.targetNotFound("search", "searchMirror", "Tools"))
          .inFile(src).onLineContaining("@Degrade(to = \"searchMirror\")");
    }

    @Test
    void aTargetWithOtherParametersIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "mirror")
          public String search(String q, int limit) { return q; }

          @SideEffect(Risk.R0)
          public String mirror(int limit) { return ""; }
          """);
      assertThat(compile(src)).hadErrorContaining(
              DegradeMessages.incompatibleParameters("search", "mirror", "java.lang.String q, int limit"))
          .inFile(src).onLineContaining("@Degrade(to = \"mirror\")");
    }

    @Test
    void aTargetWithAnotherReturnTypeIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "mirror")
          public String search(String q) { return q; }

          @SideEffect(Risk.R0)
          public Integer mirror(String q) { return 1; }
          """);
      assertThat(compile(src)).hadErrorContaining(
          DegradeMessages.incompatibleReturn("search", "mirror", "java.lang.Integer", "java.lang.String"))
          .inFile(src).onLineContaining("@Degrade(to = \"mirror\")");
    }

    @Test
    void aRiskierTargetIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "searchAndLog")
          public String search(String q) { return q; }

          @SideEffect(Risk.R3)
          public String searchAndLog(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.higherRisk("search", "R0", "searchAndLog", "R3"))
          .inFile(src).onLineContaining("@Degrade(to = \"searchAndLog\")");
    }

    @Test
    void levelsThatDoNotAscendAreAnErrorOnTheLevel() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Criticality(Criticality.Level.LOW)
          @Degrade(to = "cache", level = DegradeLevel.L4)
          @Degrade(to = "mirror", level = DegradeLevel.L2)
          public String search(String q) { return q; }

          @SideEffect(Risk.R0)
          public String mirror(String q) { return q; }

          @SideEffect(Risk.R0)
          public String cache(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.levelNotAscending("search", "mirror", "L2", "L4"))
          .inFile(src).onLineContaining("@Degrade(to = \"mirror\", level = DegradeLevel.L2)");
    }

    @Test
    void aCycleIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "mirror")
          public String search(String q) { return q; }

          @SideEffect(Risk.R0)
          @Degrade(to = "search", level = DegradeLevel.L3)
          public String mirror(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.cycle("mirror", "search -> mirror -> search"))
          .inFile(src).onLineContaining("@Degrade(to = \"search\"");
    }

    @Test
    void degradingToItselfIsACycle() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "search")
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.cycle("search", "search -> search"))
          .inFile(src).onLineContaining("@Degrade(to = \"search\")");
    }

    @Test
    void anL0RungIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "mirror", level = DegradeLevel.L0)
          public String search(String q) { return q; }

          @SideEffect(Risk.R0)
          public String mirror(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.levelZero("search", "mirror"))
          .inFile(src).onLineContaining("level = DegradeLevel.L0");
    }

    @Test
    void aTargetWithoutRiskIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Degrade(to = "mirror")
          public String search(String q) { return q; }

          String mirror(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.targetWithoutRisk("search", "mirror"))
          .inFile(src).onLineContaining("@Degrade(to = \"mirror\")");
    }
  }

  @Nested
  @DisplayName("rule 7 [hfr/criticality-degrade]: HIGH criticality degrades automatically up to L2 only")
  class CriticalityDegrade {

    @Test
    void aHighMethodWithAnL3RungIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Criticality(Criticality.Level.HIGH)
          @Degrade(to = "smaller", level = DegradeLevel.L3)
          public String answer(String q) { return q; }

          @SideEffect(Risk.R0)
          public String smaller(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.highCriticality("answer", "smaller", "L3"))
          .inFile(src).onLineContaining("level = DegradeLevel.L3");
    }

    @Test
    void aHighClassMakesItsMethodsHigh() {
      JavaFileObject src = source("com.acme.Tools", """
          package com.acme;

          import dev.hfr.annotations.*;

          @Criticality(Criticality.Level.HIGH)
          public class Tools {
            @SideEffect(Risk.R0)
            @Degrade(to = "cache", level = DegradeLevel.L4)
            public String answer(String q) { return q; }

            @SideEffect(Risk.R0)
            public String cache(String q) { return q; }
          }
          """);
      assertThat(compile(src)).hadErrorContaining(DegradeMessages.highCriticality("answer", "cache", "L4"))
          .inFile(src).onLineContaining("level = DegradeLevel.L4");
    }
  }

  @Nested
  @DisplayName("rule 8 [hfr/approval-bypass]: a rung never skips an approval")
  class ApprovalBypass {

    @Test
    void degradingToAMethodThatNeedsApprovalIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R2)
          @Degrade(to = "refundByHand", level = DegradeLevel.L4)
          @Criticality(Criticality.Level.LOW)
          public String refund(String order) { return order; }

          @SideEffect(value = Risk.R2, requiresApproval = true)
          public String refundByHand(String order) { return order; }
          """);
      Compilation compilation = compile(src);
      assertThat(compilation).hadErrorContaining(RiskMessages.approvalBypass("refund", "refundByHand"))
          .inFile(src).onLineContaining("@Degrade(to = \"refundByHand\"");
    }

    @Test
    void aMethodThatNeedsApprovalItselfMayDegradeToOne() {
      JavaFileObject src = tools("""
          @SideEffect(value = Risk.R0, requiresApproval = true)
          @Degrade(to = "other")
          public String audit(String q) { return q; }

          @SideEffect(value = Risk.R0, requiresApproval = true)
          public String other(String q) { return q; }
          """);
      Compilation compilation = compile(src);
      assertThat(compilation).succeeded();
    }
  }

  @Nested
  @DisplayName("rule 9 [hfr/proxyable]: the class and its tools can be proxied")
  class Proxyable {

    @Test
    void aFinalClassIsAnError() {
      JavaFileObject src = source("com.acme.Tools", """
          package com.acme;

          import dev.hfr.annotations.*;

          public final class Tools {
            @SideEffect(Risk.R0)
            public String search(String q) { return q; }
          }
          """);
      assertThat(compile(src)).hadErrorContaining(ProxyMessages.finalClass("Tools"))
          .inFile(src).onLineContaining("public final class Tools");
    }

    @Test
    void theFinalErrorsTellAKotlinUserToDeclareOpen() {
      Truth.assertThat(ProxyMessages.finalClass("Tools")).contains("declare it open");
      Truth.assertThat(ProxyMessages.finalClass("Tools")).contains("all-open");
      Truth.assertThat(ProxyMessages.methodModifier("sealed", "final")).contains("declare it open");
      Truth.assertThat(ProxyMessages.methodModifier("shared", "static")).doesNotContain("Kotlin");
    }

    @Test
    void privateStaticAndFinalToolsAreErrors() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          private String hidden(String q) { return q; }

          @SideEffect(Risk.R0)
          public static String shared(String q) { return q; }

          @SideEffect(Risk.R0)
          public final String sealed(String q) { return q; }
          """);
      Compilation compilation = compile(src);
      assertThat(compilation).hadErrorContaining(ProxyMessages.methodModifier("hidden", "private"))
          .inFile(src).onLineContaining("private String hidden(");
      assertThat(compilation).hadErrorContaining(ProxyMessages.methodModifier("shared", "static"))
          .inFile(src).onLineContaining("public static String shared(");
      assertThat(compilation).hadErrorContaining(ProxyMessages.methodModifier("sealed", "final"))
          .inFile(src).onLineContaining("public final String sealed(");
    }

    @Test
    void aClassWithOnlyPrivateConstructorsIsAnError() {
      JavaFileObject src = tools("""
          private Tools() {}

          @SideEffect(Risk.R0)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(ProxyMessages.noConstructor("Tools"))
          .inFile(src).onLineContaining("public class Tools");
    }

    @Test
    void anInterfaceIsAnError() {
      JavaFileObject src = source("com.acme.Tools", """
          package com.acme;

          import dev.hfr.annotations.*;

          public interface Tools {
            @SideEffect(Risk.R0)
            String search(String q);
          }
          """);
      assertThat(compile(src)).hadErrorContaining(ProxyMessages.notAClass("Tools", "an interface"))
          .inFile(src).onLineContaining("public interface Tools");
    }
  }

  @Nested
  @DisplayName("[hfr/verifier]: @Verify(by = ...) names a usable verifier")
  class VerifierChecks {

    @Test
    void aClassThatIsNoVerifierIsAnError() {
      JavaFileObject src = tools("""
          @SideEffect(Risk.R0)
          @Verify(level = VerifyLevel.V1,
              by = String.class)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(ProxyMessages.notVerifier("search", "String"))
          .inFile(src).onLineContaining("by = String.class");
    }

    @Test
    void aVerifierWithoutANoArgumentConstructorIsAnError() {
      JavaFileObject src = tools("""
          public static class Strict implements Verifier<String> {
            public Strict(int threshold) {}
            @Override public Verdict verify(String result) { return Verdict.accept(); }
          }

          @SideEffect(Risk.R0)
          @Verify(by = Strict.class)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(ProxyMessages.verifierNotInstantiable("search", "Strict"))
          .inFile(src).onLineContaining("@Verify(by = Strict.class)");
    }

    @Test
    void aVerifierOfAnotherResultTypeIsAnError() {
      JavaFileObject src = tools("""
          public static class Positive implements Verifier<Integer> {
            @Override public Verdict verify(Integer result) { return Verdict.accept(); }
          }

          @SideEffect(Risk.R0)
          @Verify(by = Positive.class)
          public String search(String q) { return q; }
          """);
      assertThat(compile(src)).hadErrorContaining(
          ProxyMessages.verifierResultType("search", "Positive", "java.lang.Integer", "java.lang.String"));
    }
  }
}
