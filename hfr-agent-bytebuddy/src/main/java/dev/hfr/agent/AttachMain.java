package dev.hfr.agent;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.hfr.agent.internal.config.AgentOptions;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * {@code java -jar hfr-agent.jar attach PID [options]}: loads this jar as an agent into the running JVM
 * {@code PID} (through the Attach API), which then instruments the HTTP clients it has already loaded
 * and those it loads later. {@code java -jar hfr-agent.jar help} lists the options.
 *
 * <p>The JDK's own Attach API ({@code jdk.attach}, resolved for every application on the class path of a JDK) does
 * the work: attaching to another process needs nothing more, and a wrapper library would add some eighty entries
 * to the jar every JVM with the agent indexes at start-up (docs/AGENT.md, "How the jar is put together").
 */
public final class AttachMain {

  private AttachMain() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    if (args.length >= 2 && args[0].equals("attach") && args.length <= 3) {
      return attach(args[1], args.length == 3 ? args[2] : "");
    }
    if (args.length == 1 && (args[0].equals("help") || args[0].equals("--help"))) {
      usage();
      return 0;
    }
    usage();
    return 2;
  }

  private static int attach(String pid, String options) {
    if (!pid.chars().allMatch(Character::isDigit) || pid.isEmpty()) {
      System.err.println("not a process id: " + pid + " (find it with jps)");
      return 2;
    }
    AgentOptions parsed = AgentOptions.parse(options);
    for (String problem : parsed.problems()) {
      System.err.println("warning: " + problem);
    }
    try {
      File jar = new File(AttachMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      VirtualMachine vm = VirtualMachine.attach(pid);
      try {
        vm.loadAgent(jar.getAbsolutePath(), options);
      } finally {
        vm.detach();
      }
      System.out.println("attached the HFR agent to " + pid + "; its messages go to that JVM's stderr");
      return 0;
    } catch (URISyntaxException | AttachNotSupportedException | IOException | AgentLoadException
        | AgentInitializationException | RuntimeException e) {
      System.err.println("could not attach to " + pid + ": " + e);
      return 1;
    }
  }

  private static void usage() {
    StringBuilder s = new StringBuilder()
        .append("usage: java -javaagent:hfr-agent.jar[=options] -jar app.jar\n")
        .append("       java -jar hfr-agent.jar attach PID [options]\n")
        .append("options: key=value pairs separated by commas, e.g. enforce=true,events=/tmp/hfr-events.jsonl\n");
    for (Map.Entry<String, String> key : AgentOptions.KEYS.entrySet()) {
      s.append(String.format("  %-32s %s%n", key.getKey(), key.getValue()));
    }
    System.err.print(s);
  }
}
