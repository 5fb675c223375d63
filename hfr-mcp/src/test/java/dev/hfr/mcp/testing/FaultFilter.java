package dev.hfr.mcp.testing;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Injects the wire faults of the {@link FaultPlan} in front of the SDK's servlet: a 429 with Retry-After, a
 * 503 or a 404 for the session answer a {@code tools/call} before any tool runs; a drop-after-commit lets
 * the tool run and marks the answer's head with {@link DroppingProxy#DROP_HEADER}, so the proxy in front
 * closes the connection instead of delivering it.
 */
final class FaultFilter implements Filter {

  private static final Pattern TOOL_CALL = Pattern.compile("\"method\"\\s*:\\s*\"tools/call\"");
  private static final Pattern TOOL_NAME = Pattern.compile("\"params\"\\s*:\\s*\\{.*?\"name\"\\s*:\\s*\"([^\"]+)\"", Pattern.DOTALL);

  private final FaultPlan plan;

  FaultFilter(FaultPlan plan) {
    this.plan = plan;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    if ("GET".equals(http.getMethod())) {
      McpFault fault = plan.atWire(FaultPlan.LISTENING_STREAM);
      if (fault == null || !refuse(fault, response)) {
        chain.doFilter(req, res);
      }
      return;
    }
    if (!"POST".equals(http.getMethod())) {
      chain.doFilter(req, res);
      return;
    }
    byte[] body = http.getInputStream().readAllBytes();
    String text = new String(body, StandardCharsets.UTF_8);
    CachedBodyRequest replay = new CachedBodyRequest(http, body);
    Matcher name = TOOL_NAME.matcher(text);
    if (!TOOL_CALL.matcher(text).find() || !name.find()) {
      chain.doFilter(replay, res);
      return;
    }
    McpFault fault = plan.atWire(name.group(1));
    if (fault instanceof McpFault.DropAfterCommit drop) {
      pause(drop.delayMillis());
      response.setHeader(DroppingProxy.DROP_HEADER, "1");
      chain.doFilter(replay, res);
    } else if (fault == null || !refuse(fault, response)) {
      chain.doFilter(replay, res);
    }
  }

  /** Answers a fault that refuses the request before the servlet sees it; {@code false} for any other fault. */
  private static boolean refuse(McpFault fault, HttpServletResponse response) throws IOException {
    if (fault instanceof McpFault.RateLimited r) {
      response.setHeader("Retry-After", Integer.toString(r.retryAfterSeconds()));
      response.sendError(429, "rate limited");
    } else if (fault instanceof McpFault.Unavailable) {
      response.sendError(503, "unavailable");
    } else if (fault instanceof McpFault.SessionExpired) {
      response.sendError(404, "session expired");
    } else {
      return false;
    }
    return true;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The request with its body read once and replayed to the servlet. */
  private static final class CachedBodyRequest extends HttpServletRequestWrapper {
    private final byte[] body;

    CachedBodyRequest(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override public boolean isFinished() { return in.available() == 0; }
        @Override public boolean isReady() { return true; }
        @Override public void setReadListener(ReadListener listener) { throw new IllegalStateException("blocking only"); }
        @Override public int read() { return in.read(); }
        @Override public int read(byte[] b, int off, int len) { return in.read(b, off, len); }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }
  }
}
