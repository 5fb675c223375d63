package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The agent jar: one file, everything inside relocated, so nothing in it can meet the application's own copies; few
 * entries, because every JVM with the agent indexes them all; and nothing missing that its classes can reach.
 */
@DisplayName("the agent jar")
class AgentJarIT {

  // constant pool tags (JVMS 4.4)
  private static final int CONSTANT_CLASS = 7;
  private static final int CONSTANT_NAME_AND_TYPE = 12;
  private static final int CONSTANT_METHOD_TYPE = 16;

  private static final String LIBRARIES_JAR = "META-INF/hfr-agent/libraries.jar";
  private static final String WEAVER_JAR = "META-INF/hfr-agent/weaver.jar";
  /** The advice templates, read as class files and inlined into the clients' classes, never loaded from the jar. */
  private static final String ADVICE = "dev/hfr/agent/internal/advice/";

  /**
   * What Micrometer and Prometheus's client name but use only when it is there or when configured to, and the agent
   * neither has nor configures (the agent jar of every earlier version lacked them as well).
   */
  private static final List<String> OPTIONAL_FOR_THE_LIBRARIES = List.of(
      // Micrometer's SLF4J logging: QuietMicrometerLogging installs its own logger factory before the registry exists
      "org/slf4j/",
      // Micrometer's pause detection, for a registry configured with a ClockDriftPauseDetector (the default has none)
      "dev/hfr/agent/shaded/org/LatencyUtils/",
      // exemplars from a tracer: Prometheus's client looks for the tracer initializer by class name, and there is none
      "dev/hfr/agent/shaded/io/prometheus/metrics/tracer/initializer/");

  /** What Byte Buddy names but uses only when asked to: JNA, for injecting classes through it, which the weaver never does. */
  private static final List<String> OPTIONAL_FOR_BYTE_BUDDY = List.of("com/sun/jna/");

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
  @DisplayName("holds only classes under dev.hfr.agent, in it and in its nested jars: Byte Buddy, Micrometer, Prometheus and the runtime are relocated")
  void everyClassIsRelocated() throws Exception {
    Map<String, byte[]> outer = classes(agentJarEntries());
    Map<String, byte[]> weaver = classes(nestedJarEntries(WEAVER_JAR));
    Map<String, byte[]> nested = classes(nestedJarEntries(LIBRARIES_JAR));
    for (Map<String, byte[]> classes : List.of(outer, weaver, nested)) {
      assertThat(classes.keySet()).isNotEmpty().allMatch(n -> n.startsWith("dev/hfr/agent/"), "is under dev/hfr/agent/")
          .noneMatch(n -> n.startsWith("okhttp3/") || n.startsWith("org/apache/"));
    }
    assertThat(outer).containsKeys("dev/hfr/agent/shaded/dev/hfr/runtime/classify/DefaultFailureClassifier");
    assertThat(weaver).containsKeys("dev/hfr/agent/shaded/net/bytebuddy/asm/Advice",
        "dev/hfr/agent/shaded/net/bytebuddy/agent/builder/AgentBuilder", "dev/hfr/agent/internal/weave/AdviceWeaving",
        "dev/hfr/agent/internal/advice/JdkSendAdvice");
    assertThat(nested).containsKeys(
        "dev/hfr/agent/shaded/io/micrometer/core/instrument/MeterRegistry",
        "dev/hfr/agent/shaded/io/micrometer/prometheusmetrics/PrometheusMeterRegistry");
    assertThat(outer.keySet()).as("no class in two: the one earlier on the class path would shadow the other")
        .doesNotContainAnyElementsOf(nested.keySet()).doesNotContainAnyElementsOf(weaver.keySet());
    assertThat(weaver.keySet()).doesNotContainAnyElementsOf(nested.keySet());
  }

  @Test
  @DisplayName("has fewer than 150 entries: Micrometer and Prometheus are one nested jar, Byte Buddy and the weaver another, the runtime only what the agent reaches")
  void fewEntries() throws Exception {
    try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
      // ~1,450 entries made the JVM's indexing of the jar, which every JVM with the agent does, hot enough to be
      // JIT-compiled (docs/AGENT.md, "Sixth round")
      assertThat(jar.size()).isLessThan(150);
      assertThat(jar.stream().map(ZipEntry::getName)).as("no directory entries, nothing looks them up")
          .noneMatch(n -> n.endsWith("/"));
      assertThat(jar.stream().map(ZipEntry::getName).filter(n -> n.startsWith("dev/hfr/agent/shaded/io/")))
          .as("of Micrometer and Prometheus, only the interface the runtime's classifier implements")
          .containsExactly("dev/hfr/agent/shaded/io/micrometer/core/instrument/binder/MeterBinder.class");
      assertThat(jar.getEntry(WEAVER_JAR).getMethod()).as("%s is stored in the agent jar", WEAVER_JAR).isEqualTo(ZipEntry.STORED);
    }
    try (ZipInputStream weaver = new ZipInputStream(new ByteArrayInputStream(agentJarEntries().get(WEAVER_JAR)))) {
      for (ZipEntry e; (e = weaver.getNextEntry()) != null; ) {
        // WeaverLoader defines each class from its place in the nested jar, found from the local headers
        assertThat(e.getMethod()).as("%s is stored", e.getName()).isEqualTo(ZipEntry.STORED);
        assertThat(e.getSize()).as("%s has its size in its local header", e.getName()).isNotNegative();
      }
    }
  }

  @Test
  @DisplayName("every class its classes name is in it, in a nested jar or in the JDK, also what they reach through the nested jars;"
      + " only the advice templates, which are never loaded, name the clients' classes")
  void nothingReachableIsMissing() throws Exception {
    // the weaver's loader asks the agent's loader for what it does not hold itself: one class space, as far as names go
    Map<String, byte[]> outer = classes(agentJarEntries());
    Map<String, byte[]> weaver = classes(nestedJarEntries(WEAVER_JAR));
    // package-info names only annotations, which the JVM reads on request alone (minimizeJar left Byte Buddy's out)
    weaver.keySet().removeIf(name -> name.startsWith(ADVICE) || name.endsWith("/package-info"));
    outer.putAll(weaver);
    Map<String, byte[]> nested = classes(nestedJarEntries(LIBRARIES_JAR));
    Set<String> missing = new TreeSet<>();
    Set<String> seen = new HashSet<>(outer.keySet());
    Deque<String> toRead = new ArrayDeque<>(outer.keySet());
    while (!toRead.isEmpty()) {
      String name = toRead.poll();
      byte[] bytes = outer.containsKey(name) ? outer.get(name) : nested.get(name);
      for (String referred : referredClasses(bytes)) {
        if (outer.containsKey(referred) || inJdk(referred)) {
          continue;
        }
        if (!nested.containsKey(referred)) {
          boolean optional = nested.containsKey(name) ? OPTIONAL_FOR_THE_LIBRARIES.stream().anyMatch(referred::startsWith)
              : name.startsWith("dev/hfr/agent/shaded/net/bytebuddy/") && OPTIONAL_FOR_BYTE_BUDDY.stream().anyMatch(referred::startsWith);
          if (!optional) {
            missing.add(referred + " (named by " + name + ")");
          }
        } else if (seen.add(referred)) {
          toRead.add(referred);
        }
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  @DisplayName("only the Prometheus endpoint's classes refer to the nested jar, and the meters and the classifier, which load without it")
  void onlyKnownClassesReferToTheNestedJar() throws Exception {
    Map<String, byte[]> outer = classes(agentJarEntries());
    Map<String, byte[]> nested = classes(nestedJarEntries(LIBRARIES_JAR));
    Map<String, Set<String>> referring = new TreeMap<>();
    for (Map.Entry<String, byte[]> c : outer.entrySet()) {
      for (String referred : referredClasses(c.getValue())) {
        if (nested.containsKey(referred)) {
          referring.computeIfAbsent(c.getKey(), k -> new TreeSet<>()).add(referred);
        }
      }
    }
    // The endpoint's classes are loaded only after NestedJar.LIBRARIES.open() (Recording); AgentMeters only names the
    // registry, and the classifier and MeterBinder only name what the registry's bindTo uses: the JVM loads neither
    // referent to load or verify them (StartupFootprintIT: a failed request, no class from the nested jar).
    assertThat(referring.keySet()).containsExactlyInAnyOrder(
        "dev/hfr/agent/PrometheusMetrics",
        "dev/hfr/agent/internal/telemetry/PrometheusEndpoint",
        "dev/hfr/agent/internal/telemetry/MicrometerMeters",
        "dev/hfr/agent/internal/telemetry/QuietMicrometerLogging",
        "dev/hfr/agent/internal/telemetry/AgentMeters",
        "dev/hfr/agent/shaded/dev/hfr/runtime/classify/DefaultFailureClassifier",
        "dev/hfr/agent/shaded/io/micrometer/core/instrument/binder/MeterBinder");
  }

  @Test
  @DisplayName("the advice templates name the clients' classes and the bridge, never another class of the agent")
  void adviceNamesOnlyTheClientsAndTheBridge() throws Exception {
    Map<String, byte[]> advice = classes(nestedJarEntries(WEAVER_JAR));
    advice.keySet().removeIf(name -> !name.startsWith(ADVICE));
    assertThat(advice).isNotEmpty();
    for (Map.Entry<String, byte[]> c : advice.entrySet()) {
      assertThat(referredClasses(c.getValue())).as(c.getKey())
          .allMatch(n -> n.equals(c.getKey()) || inJdk(n) || n.startsWith("okhttp3/") || n.startsWith("org/apache/hc/")
              || n.startsWith("dev/hfr/agent/internal/bootstrap/") || n.startsWith("dev/hfr/agent/shaded/net/bytebuddy/"));
    }
  }

  private static Map<String, byte[]> agentJarEntries() throws IOException {
    Map<String, byte[]> entries = new HashMap<>();
    try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
      for (ZipEntry e : jar.stream().toList()) {
        try (InputStream in = jar.getInputStream(e)) {
          entries.put(e.getName(), in.readAllBytes());
        }
      }
    }
    return entries;
  }

  /** The entries of a jar nested in the agent jar ({@code NestedJar}). */
  private static Map<String, byte[]> nestedJarEntries(String entry) throws IOException {
    byte[] nestedJar = agentJarEntries().get(entry);
    assertThat(nestedJar).as("the nested jar").isNotNull();
    Map<String, byte[]> entries = new HashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(nestedJar))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        entries.put(e.getName(), in.readAllBytes());
      }
    }
    return entries;
  }

  /** The class files among {@code entries}, by internal name. */
  private static Map<String, byte[]> classes(Map<String, byte[]> entries) {
    Map<String, byte[]> classes = new HashMap<>();
    entries.forEach((name, bytes) -> {
      if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
        classes.put(name.substring(0, name.length() - ".class".length()), bytes);
      }
    });
    return classes;
  }

  /**
   * The classes a class file names where the JVM may load them: its constant pool's classes (supertypes, and what
   * its code creates, casts to, catches, calls or reads) and the types in the descriptors of the members it uses
   * and declares. Not the generic signatures or the annotations, which the JVM reads only on request and whose
   * missing types it ignores.
   */
  private static Set<String> referredClasses(byte[] classFile) {
    Set<String> names = new TreeSet<>();
    ClassReader reader = new ClassReader(classFile);
    char[] buffer = new char[reader.getMaxStringLength()];
    for (int i = 1; i < reader.getItemCount(); i++) {
      int offset = reader.getItem(i);
      if (offset == 0) {
        continue; // the second slot of a long or a double
      }
      switch (reader.readByte(offset - 1)) {
        case CONSTANT_CLASS -> addType(names, Type.getObjectType(reader.readUTF8(offset, buffer)));
        case CONSTANT_NAME_AND_TYPE -> addDescriptor(names, reader.readUTF8(offset + 2, buffer));
        case CONSTANT_METHOD_TYPE -> addDescriptor(names, reader.readUTF8(offset, buffer));
        default -> { }
      }
    }
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        addDescriptor(names, descriptor);
        return null;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        addDescriptor(names, descriptor);
        return null;
      }
    }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return names;
  }

  private static void addDescriptor(Set<String> names, String descriptor) {
    Type type = Type.getType(descriptor);
    if (type.getSort() == Type.METHOD) {
      for (Type argument : type.getArgumentTypes()) {
        addType(names, argument);
      }
      addType(names, type.getReturnType());
    } else {
      addType(names, type);
    }
  }

  private static void addType(Set<String> names, Type type) {
    Type element = type.getSort() == Type.ARRAY ? type.getElementType() : type;
    if (element.getSort() == Type.OBJECT) {
      names.add(element.getInternalName());
    }
  }

  /** Whether a module of the JDK this test runs on has the class (jdk.attach's are in the application class loader). */
  private static boolean inJdk(String internalName) {
    int slash = internalName.lastIndexOf('/');
    String packageName = slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
    for (Module module : ModuleLayer.boot().modules()) {
      if (module.getPackages().contains(packageName)) {
        try (InputStream in = module.getResourceAsStream(internalName + ".class")) {
          return in != null;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return false;
  }
}
