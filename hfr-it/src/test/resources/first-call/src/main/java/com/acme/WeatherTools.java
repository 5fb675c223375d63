// tag::tools[]
package com.acme;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.ConnectException;

/** One tool: a read that fails the first time, as a network sometimes does. */
public class WeatherTools {
  private int calls;

  @SideEffect(Risk.R0)   // read-only: HFR may retry it
  public String forecast(String city) throws ConnectException {
    if (++calls == 1) {
      throw new ConnectException("Connection refused");
    }
    return "sunny in " + city + " (call " + calls + ")";
  }
}
// end::tools[]
