package dev.hfr.it.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Code on a page that comes from a tagged region of a source file a test compiles and runs. On the page:
 *
 * <pre>
 * &lt;!-- include: samples/src/main/java/dev/hfr/samples/shop/Checkout.java#engine --&gt;
 * ```java
 * (the region, as it is in the source, less its common indentation)
 * ```
 * </pre>
 *
 * In the source, the region lies between the lines {@code // tag::engine[]} and {@code // end::engine[]}
 * ({@code # tag::engine[]} and {@code # end::engine[]} in a YAML or properties file; AsciiDoc's markers, so
 * any tool that knows them can read the same regions); marker lines of other regions inside it are left out.
 */
final class DocSnippets {

  /** One include on a page: where it is, what it names, the block the page shows and the one the source gives. */
  record Include(int line, String source, String tag, String shown, String expected, int blockStart, int blockEnd) {

    boolean matches() {
      return shown.equals(expected);
    }
  }

  private static final Pattern INCLUDE = Pattern.compile(
      "<!-- include: ([^#\\s]+)#([A-Za-z0-9_-]+) -->\\n```[a-z]*\\n(.*?)```", Pattern.DOTALL);
  /** A region marker: {@code // tag::x[]} in Java, {@code # tag::x[]} in YAML and properties files. */
  private static final Pattern MARKER = Pattern.compile("^\\s*(?://|#) (?:tag|end)::[A-Za-z0-9_-]+\\[\\]\\s*$");

  private DocSnippets() {}

  /** Every include of a page; {@code root} is where the sources' paths start. */
  static List<Include> includes(String page, Path root) {
    List<Include> found = new ArrayList<>();
    Matcher m = INCLUDE.matcher(page);
    while (m.find()) {
      String expected = region(root.resolve(m.group(1)), m.group(2));
      found.add(new Include(lineOf(page, m.start()), m.group(1), m.group(2), m.group(3), expected,
          m.start(3), m.end(3)));
    }
    return found;
  }

  /** The page with every include's block replaced by its region: what the page should say. */
  static String rewrite(String page, Path root) {
    StringBuilder out = new StringBuilder(page);
    List<Include> all = includes(page, root);
    for (int i = all.size() - 1; i >= 0; i--) {
      Include include = all.get(i);
      if (include.expected() != null) {
        out.replace(include.blockStart(), include.blockEnd(), include.expected());
      }
    }
    return out.toString();
  }

  /** The tagged region, dedented, each line ending in a newline; {@code null} when the file or the tag is missing. */
  static String region(Path source, String tag) {
    if (!Files.isRegularFile(source)) {
      return null;
    }
    List<String> lines = DocPages.read(source).lines().toList();
    int start = indexOf(lines, "tag::" + tag + "[]", 0);
    int end = start < 0 ? -1 : indexOf(lines, "end::" + tag + "[]", start + 1);
    if (end < 0) {
      return null;
    }
    List<String> body = lines.subList(start + 1, end).stream().filter(l -> !MARKER.matcher(l).matches()).toList();
    int indent = body.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder out = new StringBuilder();
    for (String line : body) {
      out.append(line.isBlank() ? "" : line.substring(indent).stripTrailing()).append('\n');
    }
    return out.toString();
  }

  /** The first line from {@code from} on that is the marker behind a Java ({@code //}) or YAML ({@code #}) comment. */
  private static int indexOf(List<String> lines, String marker, int from) {
    for (int i = from; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.equals("// " + marker) || line.equals("# " + marker)) {
        return i;
      }
    }
    return -1;
  }

  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
  }
}
