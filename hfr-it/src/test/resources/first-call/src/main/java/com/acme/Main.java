// tag::main[]
package com.acme;

import dev.hfr.runtime.Hfr;

/** Asks for a forecast through HFR. */
public class Main {
  public static void main(String[] args) throws Exception {   // forecast declares a ConnectException
    try (Hfr hfr = Hfr.builder().build()) {                        // the engine: one per process
      WeatherTools tools = WeatherTools_Recovering.create(hfr);    // the proxy the processor generated
      System.out.println(tools.forecast("Lisbon"));
    }
  }
}
// end::main[]
