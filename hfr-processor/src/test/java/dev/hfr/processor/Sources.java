package dev.hfr.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;

/** Builds test sources and compiles them with the HFR processor. */
final class Sources {

  private Sources() {}

  /** A source file of class {@code qualifiedName}. */
  static JavaFileObject source(String qualifiedName, String text) {
    return JavaFileObjects.forSourceString(qualifiedName, text);
  }

  /**
   * A tool class {@code com.acme.Tools} with the usual imports, its body given: every rule test reads as
   * the class a user would write.
   */
  static JavaFileObject tools(String body) {
    return source("com.acme.Tools", """
        package com.acme;

        import dev.hfr.annotations.*;
        import dev.hfr.runtime.verify.Verdict;
        import dev.hfr.runtime.verify.Verifier;
        import java.io.IOException;
        import java.util.List;
        import java.util.Optional;

        public class Tools {
        """ + body.indent(2) + "}\n");
  }

  /** Compiles with the processor, as a user's build would. */
  static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new HfrProcessor()).compile(sources);
  }

  /**
   * Compiles with the processor and every lint warning as an error: generated code must be clean. Only
   * {@code -Xlint:processing} is off: its one notice here ("no processor claimed @Generated, @Module,
   * @Binds") is about which processors run in this test, not about the code (Dagger claims its own in a
   * real build; the root pom turns the category off for the same reason).
   */
  static Compilation compileStrict(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new HfrProcessor())
        .withOptions("-Xlint:all,-processing", "-Werror")
        .compile(sources);
  }
}
