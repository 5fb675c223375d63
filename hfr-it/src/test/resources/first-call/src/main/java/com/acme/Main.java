// tag::main[]
package com.acme;

import dev.hfr.runtime.Hfr;

public class Main {
  public static void main(String[] args) throws Exception {   // forecast declares a ConnectException
    try (Hfr hfr = Hfr.builder().build()) {                        // the engine: one per process
      WeatherTools tools = WeatherTools_Recovering.create(hfr);    // the proxy the processor generated
      System.out.println(tools.forecast("Lisbon"));
    }
  }
}
// end::main[]
