package dev.hfr.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dagger.Module;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RecoveryEngine;
import jakarta.inject.Inject;
import java.io.File;
import java.net.URISyntaxException;
import java.util.List;
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

  /**
   * What a user's module compiles against: the annotations, the runtime, jakarta.inject and Dagger. A
   * short class path instead of the whole test class path keeps each compilation fast.
   */
  private static final List<File> CLASS_PATH = List.of(
      locationOf(Risk.class), locationOf(RecoveryEngine.class), locationOf(Inject.class), locationOf(Module.class));

  /** A javac with the processor, on the user's class path. */
  static Compiler javac() {
    return Compiler.javac().withClasspath(CLASS_PATH).withProcessors(new HfrProcessor());
  }

  /** Compiles with the processor, as a user's build would. */
  static Compilation compile(JavaFileObject... sources) {
    return javac().compile(sources);
  }

  private static File locationOf(Class<?> type) {
    try {
      return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate " + type, e);
    }
  }

  /**
   * Compiles with the processor and every lint warning as an error: generated code must be clean. Only
   * {@code -Xlint:processing} is off: its one notice here ("no processor claimed @Generated, @Module,
   * @Binds") is about which processors run in this test, not about the code (Dagger claims its own in a
   * real build; the root pom turns the category off for the same reason).
   */
  static Compilation compileStrict(JavaFileObject... sources) {
    return javac()
        .withOptions("-Xlint:all,-processing", "-Werror")
        .compile(sources);
  }
}
