package dev.hfr.agent.it;

import java.io.IOException;

/**
 * The smallest application that stays up: prints {@code READY} (the agent's premain is done by then), then exits
 * normally ({@code System.exit(0)}) when a line or the end of input comes on stdin.
 */
public final class LineWaiter {

  private LineWaiter() {}

  public static void main(String[] args) throws IOException {
    System.out.println("READY");
    System.out.flush();
    while (true) {
      int c = System.in.read();
      if (c == '\n' || c == -1) {
        System.exit(0); // the way most servers end: shutdown hooks and deleteOnExit run
      }
    }
  }
}
