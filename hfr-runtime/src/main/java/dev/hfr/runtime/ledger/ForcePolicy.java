package dev.hfr.runtime.ledger;

/**
 * When the embedded ledger forces its journal to the storage device.
 *
 * <p>Every acknowledged operation has been handed to the operating system with {@code write} before the
 * method returns. That alone survives the process being killed at any instant, {@code SIGKILL} included:
 * the bytes are in the kernel's page cache, which belongs to the kernel, not to the process, and the
 * kernel writes them out later. What it does not survive is the machine losing power or the kernel
 * crashing before the page cache reaches the disk; {@code fsync} ({@link java.nio.channels.FileChannel#force})
 * closes that gap by waiting until the device reports the bytes stored.
 */
public enum ForcePolicy {
  /**
   * {@code fsync} before acknowledging each operation (operations of concurrent threads share one
   * {@code fsync}: group commit). Survives process kill, kernel crash and power loss. The default.
   */
  EVERY_WRITE,
  /**
   * {@code write} only; the kernel flushes on its own schedule. Survives process kill ({@code SIGKILL}
   * included) but may lose the last acknowledged operations on power loss or a kernel crash. Much faster
   * on devices with slow {@code fsync}.
   */
  OS_BUFFERED
}
