// tag::module[]
module com.acme.weather {
  requires dev.hfr.annotations;             // @SideEffect and the other annotations
  requires dev.hfr.runtime;                 // the engine; HFR's jars are automatic modules, so the lines below
                                            // say what they cannot require themselves
  requires java.sql;                        // the ledger and its pools
  requires org.xerial.sqlitejdbc;           // the embedded ledger's store (SQLite)
  requires java.net.http;                   // the classifier reads the JDK HTTP client's failures
  requires com.fasterxml.jackson.databind;  // decision events are JSON
  requires jakarta.inject;                  // the generated proxy's constructor is @Inject
  // requires com.fasterxml.jackson.dataformat.yaml;   // only to read an hfr.yaml

  // ServiceLoader ignores META-INF/services in a named module: the processor's catalog is provided here
  provides dev.hfr.runtime.registry.ToolCatalog with com.acme.WeatherTools_HfrCatalog;
}
// end::module[]
