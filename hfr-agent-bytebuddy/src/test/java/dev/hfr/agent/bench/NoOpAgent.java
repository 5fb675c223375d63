package dev.hfr.agent.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The floor of {@link AgentOverhead}'s start-up figures: a {@code -javaagent} that registers a
 * retransformation-capable transformer which changes nothing. What it costs, every Java agent that
 * transforms classes costs on the same JVM (the agent machinery, and a call with a copy of the class
 * file for every class loaded afterwards), whatever it does itself.
 */
public final class NoOpAgent implements ClassFileTransformer {

  /** The entry point: registers the transformer. */
  public static void premain(String options, Instrumentation inst) {
    inst.addTransformer(new NoOpAgent(), true);
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    return null;
  }

  /** Writes this class as an agent jar into a temporary file (deleted when this JVM exits). */
  static Path jar() throws IOException {
    Path jar = Files.createTempFile("noop-agent", ".jar");
    jar.toFile().deleteOnExit();
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Premain-Class", NoOpAgent.class.getName());
    manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
    String entry = NoOpAgent.class.getName().replace('.', '/') + ".class";
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
        InputStream in = NoOpAgent.class.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }
}
