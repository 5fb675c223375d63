package dev.hfr.spring.boot;

import java.util.List;

/**
 * Beans whose classes carry HFR annotations but have no generated {@code _Recovering} proxy: the annotation
 * processor did not run, so nothing would protect their calls. Start-up stops here rather than run unprotected;
 * the starter's failure analyzer says what to add to the build.
 */
public final class MissingProxyException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient List<String> classes;

  /**
   * Start-up stops for these classes.
   *
   * @param classes the annotated classes without a proxy
   */
  public MissingProxyException(List<String> classes) {
    super("HFR annotations on " + classes + " but no generated proxy (" + classes.get(0) + RecoveringToolBeans.PROXY_SUFFIX
        + "): hfr-processor did not run at compile time, so HFR would protect none of their calls");
    this.classes = List.copyOf(classes);
  }

  /** The annotated classes without a proxy. */
  public List<String> classes() {
    return classes;
  }
}
