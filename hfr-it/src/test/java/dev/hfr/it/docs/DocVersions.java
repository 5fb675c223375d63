package dev.hfr.it.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds every version of an HFR artifact a page tells users to type, wherever they would type it. */
final class DocVersions {

  /** A version as it is written on a page, and where. */
  record Mention(int line, String version, String text) {}

  private static final String VERSION = "(\\d+\\.\\d+[^<\"'\\s:/)`]*?)";

  private static final List<Pattern> PATTERNS = List.of(
      // Maven: <groupId>dev.hfr</groupId> <artifactId>..</artifactId> <version>X</version>, on one line or several
      Pattern.compile("<groupId>dev\\.hfr</groupId>\\s*<artifactId>[^<]+</artifactId>\\s*<version>([^<]+)</version>"),
      // Gradle and dependency:copy coordinates: dev.hfr:hfr-bom:X
      Pattern.compile("dev\\.hfr:[a-z0-9-]+:" + VERSION + "(?=[\"':\\s)`]|$)"),
      // a jar's file name: hfr-agent-bytebuddy-X-agent.jar, hfr-runtime-X.jar
      Pattern.compile("\\bhfr-[a-z0-9-]*?-" + VERSION + "(?:-[a-z]+)?\\.jar"),
      // a local repository path: .../dev/hfr/hfr-agent-bytebuddy/X/...
      Pattern.compile("/dev/hfr/[a-z0-9-]+/" + VERSION + "/"));

  private DocVersions() {}

  static List<Mention> find(String page) {
    List<Mention> found = new ArrayList<>();
    for (Pattern pattern : PATTERNS) {
      Matcher m = pattern.matcher(page);
      while (m.find()) {
        String version = m.group(1).trim();
        if (!version.startsWith("${")) {   // a property a build file resolves is not typed by the user
          found.add(new Mention(lineOf(page, m.start(1)), version, m.group()));
        }
      }
    }
    return found;
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
