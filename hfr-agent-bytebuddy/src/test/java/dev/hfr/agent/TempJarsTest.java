package dev.hfr.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which names in the temporary folder are the agent's jars ({@code hfr-agent-KIND-PID-UNIQUE.jar}), and how a new one
 * is written. What a JVM removes is {@code LeftOverJarsIT}'s, with real JVMs killed.
 */
@DisplayName("the agent's temporary jars")
class TempJarsTest {

  @Test
  @DisplayName("the pid is read from the agent's own names")
  void pidOfTheAgentsNames() {
    assertThat(TempJars.pidOf("hfr-agent-libraries-4242-1f3a9c2b7e.jar")).isEqualTo(4242);
    assertThat(TempJars.pidOf("hfr-agent-asm-1-0.jar")).isEqualTo(1);
    assertThat(TempJars.pidOf("hfr-agent-bootstrap-999999999999999999-ffffffffffffffff.jar")).isEqualTo(999_999_999_999_999_999L);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "hfr-agent-5731680927641983201.jar", // Files.createTempFile's name, before: no pid in it
      "hfr-agent-bootstrap-8822446688.jar", // the bridge's jar, before: a nanosecond count, no pid
      "hfr-agent-libraries-4242.jar",
      "hfr-agent-libraries-4242-1f.jar.part",
      "hfr-agent-libraries-4242-1f.JAR",
      "hfr-agent-libraries-4242-1F.jar",
      "hfr-agent-libraries-4242-xyz.jar",
      "hfr-agent-libraries-4242-1f-2.jar",
      "hfr-agent-libraries--1f.jar",
      "hfr-agent-libraries-4242-.jar",
      "hfr-agent--4242-1f.jar",
      "hfr-agent-Libraries-4242-1f.jar",
      "hfr-agent-lib2-4242-1f.jar",
      "hfr-agent-libraries-+4242-1f.jar",
      "hfr-agent-libraries-9999999999999999999-1f.jar", // 19 digits: not a pid
      "hfr-agent-libraries-4242-10000000000000000.jar", // 17 hexadecimal digits
      "my-hfr-agent-libraries-4242-1f.jar",
      "hfr-agent-.jar",
      "hfr-agent-classes123.log.0"})
  @DisplayName("any other name is not the agent's")
  void otherNames(String name) {
    assertThat(TempJars.pidOf(name)).isEqualTo(-1);
  }

  @Test
  @DisplayName("a jar is written new, under this JVM's pid, readable and writable by its user alone, and its name is the agent's")
  void writtenUnderThisJvmsPid(@TempDir Path tmp) throws Exception {
    Path jar = TempJars.write(tmp, "libraries", new ByteArrayInputStream("content".getBytes(StandardCharsets.UTF_8)));
    try {
      String name = jar.getFileName().toString();
      assertThat(jar.getParent()).isEqualTo(tmp);
      assertThat(name).startsWith("hfr-agent-libraries-" + ProcessHandle.current().pid() + "-");
      assertThat(TempJars.pidOf(name)).isEqualTo(ProcessHandle.current().pid());
      assertThat(Files.readString(jar)).isEqualTo("content");
      if (jar.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jar))).isEqualTo("rw-------");
      }
    } finally {
      Files.deleteIfExists(jar);
    }
  }
}
