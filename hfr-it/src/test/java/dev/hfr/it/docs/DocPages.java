package dev.hfr.it.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The pages a user reads: README.md and every Markdown file under docs/. */
final class DocPages {

  private DocPages() {}

  static Path root() {
    return Path.of(System.getProperty("hfr.root", "..")).toAbsolutePath().normalize();
  }

  static List<Path> all() {
    Path root = root();
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      return Stream.concat(Stream.of(root.resolve("README.md")),
          docs.filter(p -> p.toString().endsWith(".md")).sorted()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code docs/GETTING-STARTED.md}, as a user would name it. */
  static String name(Path file) {
    return root().relativize(file).toString().replace('\\', '/');
  }
}
