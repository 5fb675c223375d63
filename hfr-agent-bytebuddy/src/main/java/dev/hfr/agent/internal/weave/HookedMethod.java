package dev.hfr.agent.internal.weave;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;

/**
 * Rewrites one method as {@link MethodHook} describes, keeping the class's format (no member added), so
 * that a class already loaded can be retransformed.
 *
 * <p>Three local variables are added right after the arguments — the call handle, the exception and the
 * returned value — and the method's own locals move up by their size. Every {@code return} becomes a
 * store and a jump to the exit hook; one handler, after the method's own ones so that those still catch
 * first, covers the whole body. The class is read with expanded frames, so each of the method's stack map
 * frames is rewritten with the three variables inserted (the handle known, the other two unset), and the
 * hook's own jump targets get frames built from what is known there. Nothing is computed from the class
 * hierarchy, so no class is loaded while weaving.
 */
final class HookedMethod extends MethodVisitor {

  private static final String OBJECT = "java/lang/Object";
  private static final String THROWABLE = "java/lang/Throwable";
  /** The deepest operand stack of the hooks' own code (the library hooks' exit holds five values). */
  private static final int HOOK_STACK = 8;

  private final MethodHook hook;
  private final boolean isStatic;
  private final Type[] arguments;
  private final Type returnType;
  private final boolean frames;
  private final int argumentsSize;
  private final int added;
  private final Object[] argumentLocals;
  private final HookCode code;

  private final Label repeat = new Label();
  private final Label bodyStart = new Label();
  private final Label exit = new Label();

  /**
   * @param next where the rewritten method goes
   * @param frames whether the class has stack map frames (class files of Java 6 and later)
   */
  HookedMethod(MethodVisitor next, int access, String descriptor, MethodHook hook, boolean frames, String owner) {
    super(Opcodes.ASM9, next);
    this.hook = hook;
    this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
    this.arguments = Type.getArgumentTypes(descriptor);
    this.returnType = Type.getReturnType(descriptor);
    this.frames = frames;
    this.argumentsSize = (Type.getArgumentsAndReturnSizes(descriptor) >> 2) - (isStatic ? 1 : 0);
    this.added = 2 + returnType.getSize();
    List<Object> args = new ArrayList<>();
    if (!isStatic) {
      args.add(owner);
    }
    for (Type argument : arguments) {
      args.add(frameType(argument));
    }
    this.argumentLocals = args.toArray();
    this.code = new HookCode(next, this);
  }

  boolean isStatic() {
    return isStatic;
  }

  Type argumentType(int index) {
    return arguments[index];
  }

  int argumentSlot(int index) {
    int slot = isStatic ? 0 : 1;
    for (int i = 0; i < index; i++) {
      slot += arguments[i].getSize();
    }
    return slot;
  }

  Type returnType() {
    return returnType;
  }

  int callSlot() {
    return argumentsSize;
  }

  int thrownSlot() {
    return argumentsSize + 1;
  }

  int returnedSlot() {
    return argumentsSize + 2;
  }

  // ---- the enter hook, before the body ----

  @Override
  public void visitCode() {
    super.visitCode();
    Label tryStart = new Label();
    Label tryEnd = new Label();
    Label failed = new Label();
    Object[] entering = locals(TOP, TOP, unsetReturned());
    code.locals(entering);
    mv.visitTryCatchBlock(tryStart, tryEnd, failed, THROWABLE);
    mv.visitLabel(tryStart);
    hook.enter(code);
    mv.visitVarInsn(Opcodes.ASTORE, callSlot());
    mv.visitLabel(tryEnd);
    mv.visitJumpInsn(Opcodes.GOTO, repeat);
    mv.visitLabel(failed);
    frame(entering, THROWABLE);
    mv.visitInsn(Opcodes.POP);
    mv.visitInsn(Opcodes.ACONST_NULL);
    mv.visitVarInsn(Opcodes.ASTORE, callSlot());
    mv.visitLabel(repeat);
    frame(locals(OBJECT, TOP, unsetReturned()));
    // the body's first instruction may carry a frame of its own (a loop back to it): keep the offsets apart
    mv.visitInsn(Opcodes.NOP);
    mv.visitLabel(bodyStart);
  }

  // ---- the body: locals moved up, returns sent to the exit hook, frames widened ----

  @Override
  public void visitInsn(int opcode) {
    if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
      if (opcode != Opcodes.RETURN) {
        mv.visitVarInsn(returnType.getOpcode(Opcodes.ISTORE), returnedSlot());
      }
      mv.visitInsn(Opcodes.ACONST_NULL);
      mv.visitVarInsn(Opcodes.ASTORE, thrownSlot());
      mv.visitJumpInsn(Opcodes.GOTO, exit);
    } else {
      super.visitInsn(opcode);
    }
  }

  @Override
  public void visitVarInsn(int opcode, int slot) {
    super.visitVarInsn(opcode, moved(slot));
  }

  @Override
  public void visitIincInsn(int slot, int increment) {
    super.visitIincInsn(moved(slot), increment);
  }

  @Override
  public void visitLocalVariable(String name, String descriptor, String signature, Label start, Label end, int index) {
    super.visitLocalVariable(name, descriptor, signature, start, end, moved(index));
  }

  @Override
  public AnnotationVisitor visitLocalVariableAnnotation(int typeRef, TypePath typePath, Label[] start, Label[] end, int[] index,
      String descriptor, boolean visible) {
    int[] movedIndex = new int[index.length];
    for (int i = 0; i < index.length; i++) {
      movedIndex[i] = moved(index[i]);
    }
    return super.visitLocalVariableAnnotation(typeRef, typePath, start, end, movedIndex, descriptor, visible);
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    if (type != Opcodes.F_NEW) {
      throw new IllegalStateException("the class must be read with expanded frames");
    }
    List<Object> widened = new ArrayList<>(numLocal + added);
    int slot = 0;
    int i = 0;
    for (; i < numLocal && slot < argumentsSize; i++) {
      widened.add(local[i]);
      slot += local[i] == Opcodes.LONG || local[i] == Opcodes.DOUBLE ? 2 : 1;
    }
    for (; slot < argumentsSize; slot++) {
      widened.add(TOP);
    }
    widened.add(OBJECT);
    widened.add(TOP);
    for (Object unset : unsetReturned()) {
      widened.add(unset);
    }
    for (; i < numLocal; i++) {
      widened.add(local[i]);
    }
    super.visitFrame(Opcodes.F_NEW, widened.size(), widened.toArray(), numStack, stack);
  }

  // ---- after the body: the handler, the exit hook, the repeat, the return ----

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    Label bodyEnd = new Label();
    Label handler = new Label();
    Label exitStart = new Label();
    Label exitEnd = new Label();
    Label exitFailed = new Label();
    Label done = new Label();
    Label returning = new Label();
    mv.visitLabel(bodyEnd);
    mv.visitLabel(handler);
    frame(locals(OBJECT, TOP, unsetReturned()), THROWABLE);
    mv.visitVarInsn(Opcodes.ASTORE, thrownSlot());
    pushZero(returnType);
    if (returnType.getSort() != Type.VOID) {
      mv.visitVarInsn(returnType.getOpcode(Opcodes.ISTORE), returnedSlot());
    }

    Object[] exiting = locals(OBJECT, THROWABLE, setReturned());
    code.locals(exiting);
    mv.visitLabel(exit);
    frame(exiting);
    mv.visitLabel(exitStart);
    // an exit hook may write nothing, but a try block may not be empty (JDK 25 refuses the class)
    mv.visitInsn(Opcodes.NOP);
    hook.exit(code);
    if (hook.repeats()) {
      mv.visitJumpInsn(Opcodes.IFNE, repeat);
    }
    mv.visitLabel(exitEnd);
    mv.visitJumpInsn(Opcodes.GOTO, done);
    mv.visitLabel(exitFailed);
    frame(exiting, THROWABLE);
    mv.visitInsn(Opcodes.POP);

    mv.visitLabel(done);
    frame(exiting);
    mv.visitVarInsn(Opcodes.ALOAD, thrownSlot());
    mv.visitJumpInsn(Opcodes.IFNULL, returning);
    mv.visitVarInsn(Opcodes.ALOAD, thrownSlot());
    mv.visitInsn(Opcodes.ATHROW);
    mv.visitLabel(returning);
    frame(exiting);
    if (returnType.getSort() != Type.VOID) {
      mv.visitVarInsn(returnType.getOpcode(Opcodes.ILOAD), returnedSlot());
      if (returnType.getSort() >= Type.ARRAY && !returnType.getInternalName().equals(OBJECT)) {
        mv.visitTypeInsn(Opcodes.CHECKCAST, returnType.getInternalName());
      }
    }
    mv.visitInsn(returnType.getOpcode(Opcodes.IRETURN));

    // registered last, so the method's own handlers, listed before it, still catch first
    mv.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
    mv.visitTryCatchBlock(exitStart, exitEnd, exitFailed, THROWABLE);
    super.visitMaxs(Math.max(maxStack, HOOK_STACK), maxLocals + added);
  }

  // ----

  /** Emits a full frame (nothing, for class files without frames). */
  void frame(Object[] locals, Object... stack) {
    if (frames) {
      mv.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }
  }

  private static final Integer TOP = Opcodes.TOP;

  /** The arguments, then the handle, the exception and the returned value as given. */
  private Object[] locals(Object call, Object thrown, Object[] returned) {
    Object[] locals = new Object[argumentLocals.length + 2 + returned.length];
    System.arraycopy(argumentLocals, 0, locals, 0, argumentLocals.length);
    locals[argumentLocals.length] = call;
    locals[argumentLocals.length + 1] = thrown;
    System.arraycopy(returned, 0, locals, argumentLocals.length + 2, returned.length);
    return locals;
  }

  /** The returned-value slot(s) before anything is stored there. */
  private Object[] unsetReturned() {
    return returnType.getSize() == 2 ? new Object[] {TOP, TOP} : returnType.getSize() == 1 ? new Object[] {TOP} : new Object[0];
  }

  /** The returned-value slot once set (references as {@code Object}: the final cast restores the type). */
  private Object[] setReturned() {
    if (returnType.getSort() == Type.VOID) {
      return new Object[0];
    }
    return new Object[] {returnType.getSort() >= Type.ARRAY ? OBJECT : frameType(returnType)};
  }

  private int moved(int slot) {
    return slot < argumentsSize ? slot : slot + added;
  }

  private static Object frameType(Type type) {
    return switch (type.getSort()) {
      case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
      case Type.FLOAT -> Opcodes.FLOAT;
      case Type.LONG -> Opcodes.LONG;
      case Type.DOUBLE -> Opcodes.DOUBLE;
      case Type.ARRAY -> type.getDescriptor();
      default -> OBJECT.equals(type.getInternalName()) ? OBJECT : type.getInternalName();
    };
  }

  private void pushZero(Type type) {
    switch (type.getSort()) {
      case Type.VOID -> { }
      case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> mv.visitInsn(Opcodes.ICONST_0);
      case Type.FLOAT -> mv.visitInsn(Opcodes.FCONST_0);
      case Type.LONG -> mv.visitInsn(Opcodes.LCONST_0);
      case Type.DOUBLE -> mv.visitInsn(Opcodes.DCONST_0);
      default -> mv.visitInsn(Opcodes.ACONST_NULL);
    }
  }
}
