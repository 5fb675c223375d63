package dev.hfr.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.hfr.processor.Sources.compile;
import static dev.hfr.processor.Sources.tools;

import com.google.testing.compile.Compilation;
import dev.hfr.processor.internal.messages.TimeoutMessages;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("@Timeout: a positive bound; a warning where a timed-out write can only be abandoned")
class TimeoutRulesTest {

  @Test
  void aZeroTimeoutIsAnErrorOnItsValue() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R0)
        @Timeout(ms = 0)
        public String search(String q) { return q; }
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(TimeoutMessages.notPositive("search", 0)).inFile(src)
        .onLineContaining("@Timeout(ms = 0)");
  }

  @Test
  void aTimeoutOnAnIrreversibleWriteWithoutReconcileWarnsWhatHappens() {
    JavaFileObject src = tools("""
        @SideEffect(Risk.R3)
        @Timeout(ms = 500)
        public void sendEmail(String to) {}
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(TimeoutMessages.irreversibleWithoutReconcile("sendEmail", 500))
        .inFile(src).onLineContaining("@Timeout(ms = 500)");
  }

  @Test
  void aClassTimeoutReachesTheIrreversibleMethodsOfTheClass() {
    JavaFileObject src = Sources.source("com.acme.Mailer", """
        package com.acme;

        import dev.hfr.annotations.*;

        @Timeout(ms = 300)
        public class Mailer {
          @SideEffect(Risk.R3)
          public void sendEmail(String to) {}
        }
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(TimeoutMessages.irreversibleWithoutReconcile("sendEmail", 300))
        .inFile(src).onLineContaining("public void sendEmail");
  }

  @Test
  void aQueryableWriteWithATimeoutCompilesCleanly() {
    Compilation compilation = compile(tools("""
        @SideEffect(value = Risk.R2, reconcile = "findEmail")
        @Timeout(ms = 500)
        public String sendEmail(String to) { return to; }

        public Optional<String> findEmail(String to) { return Optional.empty(); }
        """));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void theMethodsTimeoutWinsOverTheClasssAndReachesTheDescriptor() {
    JavaFileObject src = Sources.source("com.acme.Search", """
        package com.acme;

        import dev.hfr.annotations.*;

        @Timeout(ms = 300)
        public class Search {
          @SideEffect(Risk.R0)
          @Timeout(ms = 50)
          public String fast(String q) { return q; }

          @SideEffect(Risk.R0)
          public String slow(String q) { return q; }
        }
        """);
    Compilation compilation = compile(src);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("com.acme.Search_Recovering").contentsAsUtf8String()
        .contains(".timeoutMs(50L)");
    assertThat(compilation).generatedSourceFile("com.acme.Search_Recovering").contentsAsUtf8String()
        .contains(".timeoutMs(300L)");
  }
}
