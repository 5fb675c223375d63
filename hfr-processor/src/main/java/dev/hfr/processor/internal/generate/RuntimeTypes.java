package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ClassName;

/** The runtime and annotation types generated code refers to, by name (the processor does not link them). */
final class RuntimeTypes {

  static final ClassName RECOVERY_ENGINE = ClassName.get("dev.hfr.runtime", "RecoveryEngine");
  static final ClassName TOOL_DESCRIPTOR = ClassName.get("dev.hfr.runtime", "ToolDescriptor");
  static final ClassName TOOL_INVOCATION = ClassName.get("dev.hfr.runtime", "ToolInvocation");
  static final ClassName ASYNC_TOOL_INVOCATION = ClassName.get("dev.hfr.runtime", "AsyncToolInvocation");
  static final ClassName RETRY_SPEC = ClassName.get("dev.hfr.runtime", "RetrySpec");
  static final ClassName TOOL_CATALOG = ClassName.get("dev.hfr.runtime.registry", "ToolCatalog");

  static final ClassName RISK = ClassName.get("dev.hfr.annotations", "Risk");
  static final ClassName FAULT = ClassName.get("dev.hfr.annotations", "Fault");
  static final ClassName VERIFY_LEVEL = ClassName.get("dev.hfr.annotations", "VerifyLevel");
  static final ClassName DEGRADE_LEVEL = ClassName.get("dev.hfr.annotations", "DegradeLevel");
  static final ClassName CRITICALITY_LEVEL = ClassName.get("dev.hfr.annotations", "Criticality", "Level");

  static final ClassName INJECT = ClassName.get("jakarta.inject", "Inject");
  static final ClassName DAGGER_MODULE = ClassName.get("dagger", "Module");
  static final ClassName DAGGER_BINDS = ClassName.get("dagger", "Binds");

  /** The service file {@link java.util.ServiceLoader} reads catalogs from. */
  static final String CATALOG_SERVICE = "dev.hfr.runtime.registry.ToolCatalog";
  static final String CATALOG_SERVICE_FILE = "META-INF/services/" + CATALOG_SERVICE;

  private RuntimeTypes() {}
}
