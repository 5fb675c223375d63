package dev.hfr.agent.internal.weave;

/**
 * What the agent adds around one kind of method: the code run when it is entered and when it returns or
 * throws, written with {@link HookCode}. The woven method reads, in Java terms:
 *
 * <pre>{@code
 * Object call;
 * try { call = <enter>; } catch (Throwable t) { call = null; }
 * do {
 *   try { returned = <original body>; thrown = null; } catch (Throwable t) { returned = <zero>; thrown = t; }
 *   try { repeat = <exit>; } catch (Throwable t) { repeat = false; }   // repeat: only when repeats()
 * } while (repeat);
 * if (thrown != null) throw thrown;
 * return returned;
 * }</pre>
 *
 * <p>The hook code never reaches the application: whatever it throws is dropped where it is thrown, like
 * the advice of an agent must. It should only hand values to {@code HfrBridge}.
 */
public interface MethodHook {

  /** Whether this hook goes on the method {@code name}{@code descriptor} declared by {@code owner} (internal names). */
  boolean matches(String owner, String name, String descriptor);

  /** Leaves the call handle (any object, or {@code null}) on the operand stack. */
  void enter(HookCode code);

  /** Leaves nothing on the stack, or an {@code int} (a boolean) when {@link #repeats()}; may write no code at all. */
  void exit(HookCode code);

  /** True when {@link #exit} answers whether the method's body runs again (an enforced retry). */
  default boolean repeats() {
    return false;
  }
}
