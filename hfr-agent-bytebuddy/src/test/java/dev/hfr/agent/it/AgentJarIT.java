package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/** The agent jar: one file, everything inside relocated, so nothing in it can meet the application's own copies. */
@DisplayName("the agent jar")
class AgentJarIT {

  @Test
  @DisplayName("declares the premain, agentmain and attach entry points and may retransform")
  void manifest() throws Exception {
    try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
      Attributes main = jar.getManifest().getMainAttributes();
      assertThat(main.getValue("Premain-Class")).isEqualTo("dev.hfr.agent.HfrAgent");
      assertThat(main.getValue("Agent-Class")).isEqualTo("dev.hfr.agent.HfrAgent");
      assertThat(main.getValue("Main-Class")).isEqualTo("dev.hfr.agent.AttachMain");
      assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
      assertThat(main.getValue("Can-Redefine-Classes")).isEqualTo("true");
    }
  }

  @Test
  @DisplayName("holds only classes under dev.hfr.agent: ASM, Byte Buddy's attach API, Micrometer, Jackson and the runtime are relocated")
  void everyClassIsRelocated() throws Exception {
    try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
      List<String> classes = jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
      assertThat(classes).isNotEmpty().allMatch(n -> n.startsWith("dev/hfr/agent/"), "is under dev/hfr/agent/");
      assertThat(classes).contains(
          "dev/hfr/agent/shaded/net/bytebuddy/agent/ByteBuddyAgent.class",
          "dev/hfr/agent/shaded/org/objectweb/asm/ClassReader.class",
          "dev/hfr/agent/shaded/io/micrometer/core/instrument/MeterRegistry.class",
          "dev/hfr/agent/shaded/dev/hfr/runtime/classify/DefaultFailureClassifier.class");
      assertThat(classes).noneMatch(n -> n.startsWith("okhttp3/") || n.startsWith("org/apache/"));
    }
  }

  @Test
  @DisplayName("ASM's core package, which the agent defines in the bootstrap class loader, is listed whole and each class after its superclass")
  void asmIsListedWholeInDefinitionOrder() throws Exception {
    Field listed = Class.forName("dev.hfr.agent.AsmClasses").getDeclaredField("IN_DEFINITION_ORDER");
    listed.setAccessible(true);
    List<String> order = List.of((String[]) listed.get(null));
    String dir = "dev/hfr/agent/shaded/org/objectweb/asm/";
    try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
      List<String> inJar = jar.stream().map(ZipEntry::getName)
          .filter(n -> n.startsWith(dir) && n.endsWith(".class") && n.indexOf('/', dir.length()) < 0)
          .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
          .toList();
      assertThat(order).as("every class of the package, once").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(inJar);
      for (String name : order) {
        ClassReader reader;
        try (InputStream in = jar.getInputStream(jar.getEntry(name.replace('.', '/') + ".class"))) {
          reader = new ClassReader(in.readAllBytes());
        }
        List<String> supertypes = new ArrayList<>(List.of(reader.getInterfaces()));
        supertypes.add(reader.getSuperName());
        for (String supertype : supertypes) {
          String superName = supertype.replace('/', '.');
          if (order.contains(superName)) {
            assertThat(order.indexOf(superName)).as("%s comes before %s", superName, name).isLessThan(order.indexOf(name));
          }
        }
      }
    }
  }
}
