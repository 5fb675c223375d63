package dev.hfr.agent;

import dev.hfr.agent.internal.instrumentation.Weaving;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The class loader of the weaver: Byte Buddy (relocated), the agent's classes that use it
 * ({@code dev.hfr.agent.internal.weave}) and the advice templates ({@code dev.hfr.agent.internal.advice}), all in one
 * nested jar of the agent jar ({@code META-INF/hfr-agent/weaver.jar}, stored). The first time a class is woven the
 * nested jar's central directory is read (where each class file is); each class is then read from its place in the
 * agent jar when it is first asked for, so only the few hundred Byte Buddy classes a weaving uses are ever read or
 * defined, and nothing is inflated, copied to a file or kept on the heap. Kept out of the agent jar's own entries
 * because the JVM indexes every entry of an agent jar in every JVM the agent is in (docs/BENCHMARKS.md, "Java agent overhead"), and Byte
 * Buddy is thousands.
 *
 * <p>The weaver's classes come from here first; anything else (the agent's classes, the JDK) from the agent's own
 * class loader. Advice class files are served as resources, which is how the weaver's {@code ClassFileLocator} reads
 * them without loading them.
 */
final class WeaverLoader extends ClassLoader {

  static final String ENTRY = "META-INF/hfr-agent/weaver.jar";
  private static final String WEAVING = "dev.hfr.agent.internal.weave.AdviceWeaving";
  private static final int LOCAL_HEADER = 0x04034b50;
  private static final int CENTRAL_HEADER = 0x02014b50;
  private static final int END_OF_CENTRAL_DIRECTORY = 0x06054b50;
  private static final String CLASS = ".class";

  static {
    registerAsParallelCapable();
  }

  private final BootstrapInjector.Bytes jar;
  /** Where each class file's local header is in {@link #jar}, and its sizes, by internal name without {@code .class}. */
  private final Map<String, int[]> classes;

  private WeaverLoader(ClassLoader parent, BootstrapInjector.Bytes jar) throws IOException {
    super("hfr-agent-weaver", parent);
    this.jar = jar;
    this.classes = index(jar);
  }

  /**
   * The weaver. When the agent's jar has no nested weaver jar (this module's own tests, where Byte Buddy and the weaver
   * are on the class path), it is loaded by the agent's class loader.
   */
  static Weaving load() throws IOException, ReflectiveOperationException {
    long began = System.nanoTime();
    ClassLoader agentLoader = WeaverLoader.class.getClassLoader();
    BootstrapInjector.Bytes jar = BootstrapInjector.AgentJar.openEntry(ENTRY);
    Class<?> weaving = jar == null ? Class.forName(WEAVING, true, agentLoader) : new WeaverLoader(agentLoader, jar).loadClass(WEAVING);
    Weaving loaded = (Weaving) weaving.getConstructor().newInstance();
    AgentLog.debug("loaded the weaver" + (jar == null ? " from the class path" : "") + " in " + AgentLog.millisSince(began));
    return loaded;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    int[] at = classes.get(name.replace('.', '/'));
    if (at == null) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        byte[] entry = read(name, at);
        c = defineClass(name, entry, entry.length - at[2], at[2], WeaverLoader.class.getProtectionDomain());
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    if (name.endsWith(CLASS)) {
      int[] at = classes.get(name.substring(0, name.length() - CLASS.length()));
      if (at != null) {
        try {
          byte[] entry = read(name, at);
          return new ByteArrayInputStream(entry, entry.length - at[2], at[2]);
        } catch (ClassNotFoundException e) {
          return null;
        }
      }
    }
    return super.getResourceAsStream(name);
  }

  /** The local header, name, extra field and class file of an entry; the class file is the array's last {@code at[2]} bytes. */
  private byte[] read(String name, int[] at) throws ClassNotFoundException {
    try {
      byte[] entry = jar.read(at[0], 30 + at[1] + at[2]);
      int extra = u16(entry, 28);
      if (u32(entry, 0) != LOCAL_HEADER || u16(entry, 26) + extra != at[1]) {
        // the local extra field differs from the central one: read again with the local lengths
        at[1] = u16(entry, 26) + extra;
        entry = jar.read(at[0], 30 + at[1] + at[2]);
      }
      return entry;
    } catch (IOException e) {
      throw new ClassNotFoundException(name + " could not be read from " + ENTRY, e);
    }
  }

  /**
   * Where each class file is, from the nested jar's central directory: its local header's offset, the length of the
   * local name and extra field (taken from the central header, checked when the class is read) and its size. The build
   * writes the nested jar stored, without a comment ({@code AgentJarIT} checks it).
   */
  private static Map<String, int[]> index(BootstrapInjector.Bytes jar) throws IOException {
    long size = jar.size();
    byte[] end = jar.read(size - 22, 22);
    if (u32(end, 0) != END_OF_CENTRAL_DIRECTORY) {
      throw new IOException(ENTRY + " has no end of central directory where it should (a comment?)");
    }
    int count = u16(end, 10);
    byte[] directory = jar.read(u32(end, 16), u32(end, 12));
    Map<String, int[]> classes = new HashMap<>(count * 4 / 3 + 1);
    int at = 0;
    for (int i = 0; i < count; i++) {
      if (u32(directory, at) != CENTRAL_HEADER) {
        throw new IOException(ENTRY + "'s central directory is broken at entry " + i);
      }
      int method = u16(directory, at + 10);
      int stored = u32(directory, at + 20);
      int nameLength = u16(directory, at + 28);
      int extraLength = u16(directory, at + 30);
      int name = at + 46;
      if (nameLength > CLASS.length() && directory[name + nameLength - CLASS.length()] == '.'
          && new String(directory, name + nameLength - CLASS.length(), CLASS.length(), StandardCharsets.ISO_8859_1).equals(CLASS)) {
        if (method != 0) {
          throw new IOException(ENTRY + " is not stored (entry " + i + ")");
        }
        classes.put(new String(directory, name, nameLength - CLASS.length(), StandardCharsets.ISO_8859_1),
            new int[] {u32(directory, at + 42), nameLength + extraLength, stored});
      }
      at = name + nameLength + extraLength + u16(directory, at + 32);
    }
    return classes;
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  private static int u32(byte[] b, int at) {
    return u16(b, at) | u16(b, at + 2) << 16;
  }
}
