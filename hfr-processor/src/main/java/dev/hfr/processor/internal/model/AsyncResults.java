package dev.hfr.processor.internal.model;

import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Asynchronous tools: a method returning {@code CompletionStage<R>} or {@code CompletableFuture<R>} is run
 * by the engine's asynchronous driver, and its result type (what is verified, reconciled and hashed) is
 * {@code R}. Other asynchronous types — Reactor's {@code Mono}, RxJava's {@code Single}, a plain {@code
 * Future} — cannot be run without blocking a thread and are refused at compile time.
 */
public final class AsyncResults {

  private static final Set<String> STAGES = Set.of("java.util.concurrent.CompletionStage",
      "java.util.concurrent.CompletableFuture");
  /** Supertypes of the asynchronous types HFR has no driver for (checked when they are on the class path). */
  private static final List<String> OTHER_ASYNC_SUPERTYPES = List.of("java.util.concurrent.CompletionStage",
      "java.util.concurrent.Future", "java.util.concurrent.Flow.Publisher", "org.reactivestreams.Publisher");
  /** The same by name, for libraries whose supertypes are not on the class path. */
  private static final Set<String> OTHER_ASYNC_NAMES = Set.of("reactor.core.publisher.Mono",
      "reactor.core.publisher.Flux", "io.reactivex.rxjava3.core.Single", "io.reactivex.rxjava3.core.Maybe",
      "io.reactivex.rxjava3.core.Completable", "io.reactivex.rxjava3.core.Observable",
      "io.reactivex.rxjava3.core.Flowable", "io.smallrye.mutiny.Uni", "io.smallrye.mutiny.Multi",
      "com.google.common.util.concurrent.ListenableFuture", "io.vertx.core.Future", "kotlinx.coroutines.Deferred");

  private AsyncResults() {}

  /** Whether {@code method} returns {@code CompletionStage<R>} or {@code CompletableFuture<R>} with a declared R. */
  public static boolean isAsync(ExecutableElement method) {
    return stageResult(method.getReturnType()) != null;
  }

  /** {@code R} of an asynchronous tool; the return type of any other method. */
  public static TypeMirror resultType(ExecutableElement method) {
    TypeMirror r = stageResult(method.getReturnType());
    return r != null ? r : method.getReturnType();
  }

  /**
   * Why HFR cannot run a method returning {@code type} — an asynchronous type it has no driver for, or a
   * stage without a result type — or {@code null} when it can.
   */
  public static String unsupported(TypeMirror type, Elements elements, Types types) {
    if (!(type instanceof DeclaredType declared)) {
      return null;
    }
    String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
    if (STAGES.contains(name)) {
      return stageResult(type) != null ? null : "a stage without a result type";
    }
    if (OTHER_ASYNC_NAMES.contains(name)) {
      return "an asynchronous type HFR has no driver for";
    }
    for (String supertype : OTHER_ASYNC_SUPERTYPES) {
      TypeElement element = elements.getTypeElement(supertype);
      if (element != null && types.isAssignable(types.erasure(type), types.erasure(element.asType()))) {
        return "an asynchronous type HFR has no driver for";
      }
    }
    return null;
  }

  private static TypeMirror stageResult(TypeMirror type) {
    if (!(type instanceof DeclaredType declared) || declared.getTypeArguments().size() != 1) {
      return null;
    }
    String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
    TypeMirror argument = declared.getTypeArguments().get(0);
    if (!STAGES.contains(name) || (argument.getKind() != TypeKind.DECLARED && argument.getKind() != TypeKind.ARRAY)) {
      return null;
    }
    return argument;
  }
}
