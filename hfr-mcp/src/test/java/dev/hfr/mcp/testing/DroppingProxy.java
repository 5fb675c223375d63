package dev.hfr.mcp.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 in front of the MCP server that drops a connection for real: when a response
 * head carries {@link #DROP_HEADER}, both sockets are closed and nothing of that response reaches the
 * client — which sees its connection end under a request whose tool already ran.
 */
final class DroppingProxy implements AutoCloseable {

  static final String DROP_HEADER = "X-Hfr-Test-Drop";
  private static final byte[] MARKER = DROP_HEADER.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket listener;
  private final int targetPort;
  private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "mcp-test-proxy");
    t.setDaemon(true);
    return t;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean closed;

  DroppingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    pumps.execute(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  long dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        open.add(client);
        open.add(server);
        pumps.execute(() -> pump(client, server, false));
        pumps.execute(() -> pump(server, client, true));
      } catch (IOException e) {
        if (!closed) {
          continue;
        }
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean watch) {
    byte[] buf = new byte[16384];
    byte[] tail = new byte[0];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) > 0) {
        if (watch) {
          byte[] window = new byte[tail.length + n];
          System.arraycopy(tail, 0, window, 0, tail.length);
          System.arraycopy(buf, 0, window, tail.length, n);
          if (contains(window, MARKER)) {
            dropped.incrementAndGet();
            close(from);
            close(to);
            return;
          }
          int keep = Math.min(MARKER.length, window.length);
          tail = java.util.Arrays.copyOfRange(window, window.length - keep, window.length);
        }
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException ended) {
      // one side closed: close the other so the peer sees it too
    } finally {
      close(from);
      close(to);
    }
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        byte b = hay[i + j];
        if (b >= 'A' && b <= 'Z') {
          b = (byte) (b + 32);
        }
        if (b != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private void close(Socket s) {
    open.remove(s);
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    open.forEach(this::close);
    pumps.shutdownNow();
  }
}
