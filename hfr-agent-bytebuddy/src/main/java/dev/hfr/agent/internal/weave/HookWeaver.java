package dev.hfr.agent.internal.weave;

import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Weaves {@link MethodHook}s into a class file with ASM: the methods a hook matches are rewritten
 * ({@link HookedMethod}), every other method is copied as it is. No member is added or removed, so the
 * result may replace a class that is already loaded (retransformation).
 *
 * <p>This replaces Byte Buddy's {@code Advice} at run time: the same inlined calls to the bridge, written by
 * some twenty ASM classes instead of the several hundred classes Byte Buddy loads, runs and has compiled
 * the first time a JVM uses an HTTP client (docs/AGENT.md, "Start-up").
 */
public final class HookWeaver {

  private HookWeaver() {}

  /**
   * The class with the hooks woven in, or {@code null} when no method matched.
   *
   * @param classFile the class as the JVM gives it to a transformer
   * @param hooks the hooks of the class's instrumentation
   */
  public static byte[] weave(byte[] classFile, List<MethodHook> hooks) {
    ClassReader reader = new ClassReader(classFile);
    // constants and untouched methods are copied from the reader: the class is not rebuilt
    ClassWriter writer = new ClassWriter(reader, 0);
    HookingClass hooking = new HookingClass(writer, hooks);
    reader.accept(hooking, ClassReader.EXPAND_FRAMES);
    return hooking.woven ? writer.toByteArray() : null;
  }

  /**
   * The classes a weaving runs besides ASM's. Naming them loads them, without initialising them: a caller can have them
   * loaded before it registers a transformer.
   */
  public static List<Class<?>> classes() {
    return List.of(HookWeaver.class, HookingClass.class, HookedMethod.class, HookCode.class);
  }

  private static final class HookingClass extends ClassVisitor {
    private final List<MethodHook> hooks;
    private String owner;
    private boolean frames;
    private boolean woven;

    HookingClass(ClassVisitor next, List<MethodHook> hooks) {
      super(Opcodes.ASM9, next);
      this.hooks = hooks;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
      this.owner = name;
      this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || name.charAt(0) == '<') {
        return next;
      }
      for (MethodHook hook : hooks) {
        if (hook.matches(owner, name, descriptor)) {
          woven = true;
          return new HookedMethod(next, access, descriptor, hook, frames, owner);
        }
      }
      return next;
    }
  }
}
