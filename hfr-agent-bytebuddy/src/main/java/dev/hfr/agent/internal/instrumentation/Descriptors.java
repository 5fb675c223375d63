package dev.hfr.agent.internal.instrumentation;

/** Reading method descriptors ({@code (Ljava/lang/String;I)V}) for the hooks' method matching. */
final class Descriptors {

  private Descriptors() {}

  /** How many arguments the descriptor declares. */
  static int argumentCount(String descriptor) {
    int count = 0;
    int i = 1;
    while (descriptor.charAt(i) != ')') {
      while (descriptor.charAt(i) == '[') {
        i++;
      }
      i = descriptor.charAt(i) == 'L' ? descriptor.indexOf(';', i) + 1 : i + 1;
      count++;
    }
    return count;
  }
}
