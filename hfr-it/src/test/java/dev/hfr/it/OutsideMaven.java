package dev.hfr.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Maven, run on an outside project as a user would run it, against HFR as {@code mvn install} would have put it
 * in a local repository — without installing anything into the shared one. HFR's artifacts (this build's jars and
 * POMs) go into a local repository of this module's own under {@code target/}; everything else comes from the
 * user's local repository, read as a file repository (and from Maven Central for what it lacks), so the run needs
 * no network when the build's own dependencies are already there.
 */
public final class OutsideMaven {

  /** What HFR publishes that a plain-Java project resolves: the BOM, the parent POM and three jars. */
  private static final List<String> JARS = List.of("hfr-annotations", "hfr-processor", "hfr-runtime");

  private final Path root;
  private final String version;
  private final Path repository;
  private final Path settings;
  private final Path mavenHome;

  private OutsideMaven(Path root, String version, Path repository, Path settings, Path mavenHome) {
    this.root = root;
    this.version = version;
    this.repository = repository;
    this.settings = settings;
    this.mavenHome = mavenHome;
  }

  /**
   * Prepares the repository from this build: the system properties {@code hfr.root}, {@code hfr.version},
   * {@code hfr.it.classpath} (where the reactor's jars are), {@code hfr.it.m2} (the user's local repository) and
   * {@code maven.home} (the Maven that runs this build), all set by this module's POM.
   */
  public static OutsideMaven fromThisBuild() throws IOException {
    Path root = Path.of(System.getProperty("hfr.root", "..")).toAbsolutePath().normalize();
    String version = System.getProperty("hfr.version");
    Path target = root.resolve("hfr-it/target");
    Path repository = target.resolve("outside-repository");
    OutsideMaven maven = new OutsideMaven(root, version, repository, target.resolve("outside-settings.xml"),
        Path.of(System.getProperty("maven.home")));
    maven.publish();
    return maven;
  }

  /** The version of the Maven that runs this build, e.g. {@code 3.8.7}. */
  public String mavenVersion() throws Exception {
    Result r = run(Files.createTempDirectory("mvn-version"), List.of("-v"));
    var m = java.util.regex.Pattern.compile("Apache Maven (\\d+\\.\\d+\\.\\d+)").matcher(r.output());
    return m.find() ? m.group(1) : r.output();
  }

  /** Runs {@code mvn -B <arguments>} in {@code project} with the prepared repository. */
  public Result run(Path project, List<String> arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(mavenHome.resolve("bin/mvn").toString(), "-B", "-s",
        settings.toString()));
    command.addAll(arguments);
    Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("mvn " + arguments + " did not finish in 5 minutes:\n" + output);
    }
    return new Result(process.exitValue(), output);
  }

  /** The output of a run and its exit code. */
  public record Result(int exit, String output) {}

  private void publish() throws IOException {
    Path userRepository = Path.of(System.getProperty("hfr.it.m2", System.getProperty("user.home") + "/.m2/repository"));
    Files.createDirectories(repository);
    Files.writeString(settings, """
        <settings>
          <localRepository>%s</localRepository>
          <profiles>
            <profile>
              <id>user-repository</id>
              <repositories><repository><id>user-m2</id><url>%s</url></repository></repositories>
              <pluginRepositories><pluginRepository><id>user-m2</id><url>%s</url></pluginRepository></pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>user-repository</activeProfile></activeProfiles>
        </settings>
        """.formatted(repository, userRepository.toUri(), userRepository.toUri()));
    put("hfr-parent", root.resolve("pom.xml"), null);
    put("hfr-bom", root.resolve("hfr-bom/pom.xml"), null);
    List<String> classPath = List.of(Files.readString(Path.of(System.getProperty("hfr.it.classpath"))).trim().split(":"));
    for (String module : JARS) {
      Path built = classPath.stream().map(Path::of)
          .filter(p -> p.toString().contains("/" + module + "/target/"))
          .findFirst().orElseThrow(() -> new IllegalStateException(module + " is not on " + classPath));
      put(module, root.resolve(module).resolve("pom.xml"), built);
    }
  }

  /** Puts a POM (and its jar, or a jar of its classes directory) where {@code mvn install} would. */
  private void put(String artifact, Path pom, Path built) throws IOException {
    Path dir = repository.resolve("dev/hfr").resolve(artifact).resolve(version);
    Files.createDirectories(dir);
    Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    if (built == null) {
      return;
    }
    Path jar = dir.resolve(artifact + "-" + version + ".jar");
    if (Files.isDirectory(built)) {
      jar(built, jar);
    } else {
      Files.copy(built, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** A jar of a classes directory, for a build that stopped before {@code package}. */
  private static void jar(Path classes, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
        zip.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
