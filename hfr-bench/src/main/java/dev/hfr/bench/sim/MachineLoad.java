package dev.hfr.bench.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** What the run can learn about how busy the machine is: the load average and this process's CPU time. */
final class MachineLoad {

  private MachineLoad() {}

  /** The one-minute system load average, or a negative number when the platform does not report one. */
  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** CPU seconds used by this process so far (all threads), or a negative number when unknown. */
  static double processCpuSeconds() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      long nanos = hotspot.getProcessCpuTime();
      return nanos < 0 ? -1 : nanos / 1e9;
    }
    return -1;
  }
}
