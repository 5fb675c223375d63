package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.messages.AsyncMessages;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Asynchronous tools return {@code CompletionStage<R>} or {@code CompletableFuture<R>}: the engine's
 * asynchronous driver runs those. Any other asynchronous type (a Reactor {@code Mono}, a plain {@code
 * Future}) would look like an immediate success to a blocking proxy, so it is refused.
 */
public final class AsyncTypeValidator implements Validator {

  private final Elements elements;
  private final Types types;

  public AsyncTypeValidator(Elements elements, Methods methods) {
    this.elements = elements;
    this.types = methods.types();
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      String why = AsyncResults.unsupported(tool.element().getReturnType(), elements, types);
      if (why == null) {
        continue;
      }
      String returnType = tool.element().getReturnType().toString();
      report.error(why.startsWith("a stage")
          ? AsyncMessages.stageWithoutResultType(tool.name(), returnType)
          : AsyncMessages.unsupported(tool.name(), returnType, "which is " + why), tool.element());
    }
  }
}
