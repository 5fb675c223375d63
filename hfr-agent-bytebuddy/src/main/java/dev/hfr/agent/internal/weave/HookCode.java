package dev.hfr.agent.internal.weave;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The instructions a {@link MethodHook} may write: loads of the method's receiver, arguments, call
 * handle, returned value and exception, calls, and branches whose targets get their stack map frame.
 * The hook's code starts and ends with an empty operand stack (apart from what it leaves, see
 * {@link MethodHook}).
 */
public final class HookCode {

  private static final String BRIDGE = "dev/hfr/agent/internal/bootstrap/HfrBridge";

  private final MethodVisitor mv;
  private final HookedMethod method;
  private Object[] locals;

  HookCode(MethodVisitor mv, HookedMethod method) {
    this.mv = mv;
    this.method = method;
  }

  /** The local variables' types at the current hook (the stack map frames' locals). */
  void locals(Object[] frameLocals) {
    this.locals = frameLocals;
  }

  /** {@code this}. */
  public void loadThis() {
    if (method.isStatic()) {
      throw new IllegalStateException("a static method has no this");
    }
    mv.visitVarInsn(Opcodes.ALOAD, 0);
  }

  /** Argument {@code index} (0-based), which must be a reference. */
  public void loadArgument(int index) {
    if (method.argumentType(index).getSort() < Type.ARRAY) {
      throw new IllegalStateException("argument " + index + " is a primitive");
    }
    mv.visitVarInsn(Opcodes.ALOAD, method.argumentSlot(index));
  }

  /** The handle the enter hook left (in the exit hook only). */
  public void loadCall() {
    mv.visitVarInsn(Opcodes.ALOAD, method.callSlot());
  }

  /** What the method returned, {@code null} when it threw (exit hook of a method returning a reference). */
  public void loadReturned() {
    if (method.returnType().getSort() < Type.ARRAY) {
      throw new IllegalStateException("the method returns " + method.returnType());
    }
    mv.visitVarInsn(Opcodes.ALOAD, method.returnedSlot());
  }

  /** What the method threw, {@code null} when it returned (exit hook). */
  public void loadThrown() {
    mv.visitVarInsn(Opcodes.ALOAD, method.thrownSlot());
  }

  /** An {@code int} (or boolean) constant. */
  public void push(int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(Opcodes.ICONST_0 + value);
    } else {
      mv.visitIntInsn(Opcodes.BIPUSH, value);
    }
  }

  /** A string constant, or {@code null}. */
  public void push(String value) {
    if (value == null) {
      mv.visitInsn(Opcodes.ACONST_NULL);
    } else {
      mv.visitLdcInsn(value);
    }
  }

  /** A static method of {@code HfrBridge}, the only agent class the woven code may call. */
  public void callBridge(String name, String descriptor) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, name, descriptor, false);
  }

  /** A cast of the value on top of the stack. */
  public void cast(String internalName) {
    mv.visitTypeInsn(Opcodes.CHECKCAST, internalName);
  }

  /** A method of a class. */
  public void callVirtual(String owner, String name, String descriptor) {
    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, name, descriptor, false);
  }

  /** A method of an interface. */
  public void callInterface(String owner, String name, String descriptor) {
    mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, owner, name, descriptor, true);
  }

  /** Duplicates the value on top of the stack. */
  public void dup() {
    mv.visitInsn(Opcodes.DUP);
  }

  /** Drops the value on top of the stack. */
  public void pop() {
    mv.visitInsn(Opcodes.POP);
  }

  /** A new label for {@link #ifNull}, {@link #ifNonNull}, {@link #jump} and {@link #place}. */
  public Label label() {
    return new Label();
  }

  /** Pops a reference and jumps to {@code target} when it is {@code null}. */
  public void ifNull(Label target) {
    mv.visitJumpInsn(Opcodes.IFNULL, target);
  }

  /** Pops a reference and jumps to {@code target} when it is not {@code null}. */
  public void ifNonNull(Label target) {
    mv.visitJumpInsn(Opcodes.IFNONNULL, target);
  }

  /** Jumps to {@code target}. */
  public void jump(Label target) {
    mv.visitJumpInsn(Opcodes.GOTO, target);
  }

  /**
   * Places a jump target, with the frame the verifier needs there: the stack then holds {@code stack}
   * (bottom first: {@link Opcodes#INTEGER} or an internal class name).
   */
  public void place(Label target, Object... stack) {
    mv.visitLabel(target);
    method.frame(locals, stack);
  }
}
