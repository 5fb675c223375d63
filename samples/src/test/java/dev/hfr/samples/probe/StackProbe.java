package dev.hfr.samples.probe;

import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.classify.HttpCallException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool that records the call stack it runs on, compiled by the same processor as the samples: the
 * stack shows what lies between a caller and the tool method.
 */
public class StackProbe {

  private static final StackWalker WALKER = StackWalker.getInstance(Set.of(StackWalker.Option.SHOW_REFLECT_FRAMES));

  /** The stack of this call; {@code unavailable} makes it fail with a 501 so the ladder is used. */
  @SideEffect(Risk.R0)
  @Degrade(to = "fallback", level = DegradeLevel.L2)
  public List<StackWalker.StackFrame> probe(boolean unavailable) {
    if (unavailable) {
      throw new HttpCallException(501, Map.of(), "gone");
    }
    return WALKER.walk(frames -> frames.toList());
  }

  /** The stack of a degraded call. */
  @SideEffect(Risk.R0)
  public List<StackWalker.StackFrame> fallback(boolean unavailable) {
    return WALKER.walk(frames -> frames.toList());
  }
}
