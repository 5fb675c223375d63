package dev.hfr.processor.internal.messages;

/** Asynchronous tools: which return types the engine can run without blocking a thread. */
public final class AsyncMessages {

  /** A tool returns an asynchronous type HFR cannot drive. */
  public static final String ASYNC_TYPE = "hfr/async-type";

  private AsyncMessages() {}

  public static String unsupported(String method, String returnType, String why) {
    return "[" + ASYNC_TYPE + "] " + method + " returns " + returnType + ", " + why + ": HFR would see the call"
        + " succeed before the work ran and could not recover it. Return CompletionStage<R> or"
        + " CompletableFuture<R> (for a Reactor Mono: mono.toFuture()), or make the method blocking";
  }

  public static String stageWithoutResultType(String method, String returnType) {
    return "[" + ASYNC_TYPE + "] " + method + " returns " + returnType + " without a result type HFR can verify"
        + " and hash: declare it, e.g. CompletableFuture<Order>";
  }
}
