package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.CallDepth;
import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One call of an Apache HttpClient 5 async client ({@code doExecute}). The client is given the agent's producer, consumer
 * and callback, JDK proxies of Apache's interfaces defined in the application's class loader (the agent's classes cannot
 * name Apache's types), which pass every call on to the application's and watch three moments: the request's head (method,
 * host, {@code Idempotency-Key}), the response's head (status, rate-limit headers: the attempt is classified there) and
 * the end of the exchange.
 *
 * <p>Under enforcement, an attempt the agent will send again is kept from the application: its body is read and dropped
 * (the application's consumer never sees that response), and when the exchange ends the same request is executed again
 * through the same client after the backoff, on the JDK's delayed executor (no thread waits). The application holds the
 * agent's future ({@link Result}), completed, with its callback called, by the last attempt; cancelling it stops the
 * retries and cancels the attempt in flight. A request whose producer cannot be repeated, or that is not idempotent, is
 * never sent again.
 */
final class ApacheAsyncCall {

  private final HttpCallRecorder recorder;
  private final Object client;
  private final Object target;
  private final Object pushHandlerFactory;
  private final Object context;
  private final Object producer;
  private final Object consumer;
  /** The application's callback, or {@code null}. */
  private final Object callback;
  private final Class<?> producerType;
  private final Class<?> callbackType;
  /** The client's {@code execute(HttpHost, producer, consumer, push handlers, context, callback)}, for a retry. */
  private final Method execute;
  /** What the application gets under enforcement; {@code null} in shadow mode (it gets the client's own future). */
  final Result result;
  final Object producerProxy;
  final Object consumerProxy;
  final Object callbackProxy;

  // the attempt under way, under this object's lock
  private HttpCall call;
  private boolean decided;
  /** Zero or more: this attempt's response is dropped and the request sent again after that many nanoseconds. */
  private long retryDelayNanos = -1;
  private boolean delivered;
  /** The consumer's result callback of a dropped response (completed when its body has been read). */
  private Object droppedResult;
  private Method droppedCompleted;

  ApacheAsyncCall(HttpCallRecorder recorder, boolean enforce, Object client, Object target, Object producer, Object consumer,
      Object pushHandlerFactory, Object context, Object callback, Class<?>[] types) {
    this.recorder = recorder;
    this.client = client;
    this.target = target;
    this.producer = producer;
    this.consumer = consumer;
    this.pushHandlerFactory = pushHandlerFactory;
    this.context = context;
    this.callback = callback;
    this.producerType = types[0];
    this.callbackType = types[2];
    this.execute = enforce ? executeMethod(client) : null;
    this.result = execute != null ? new Result(this) : null;
    ClassLoader loader = types[1].getClassLoader();
    this.producerProxy = Proxy.newProxyInstance(loader, new Class<?>[] {types[0]}, new Producer());
    this.consumerProxy = Proxy.newProxyInstance(loader, new Class<?>[] {types[1]}, new Consumer());
    this.callbackProxy = Proxy.newProxyInstance(loader, new Class<?>[] {types[2]}, new Callback());
  }

  /** The client's {@code doExecute} returned: the future the application gets. */
  Object returned(Object future, Throwable thrown) {
    if (thrown != null) {
      attemptEnded(0, null, thrown);
      return future;
    }
    if (result == null) {
      return future;
    }
    result.inFlight = (Future<?>) future;
    return result;
  }

  // ---- the three moments

  private void requestSent(Object request, Class<?> requestType) throws ReflectiveOperationException {
    synchronized (this) {
      if (call != null) {
        return; // a retry sends the same request again
      }
    }
    String method = (String) requestType.getMethod("getMethod").invoke(request);
    String host = null;
    if (target != null) {
      host = (String) target.getClass().getMethod("getHostName").invoke(target);
    } else {
      Object authority = requestType.getMethod("getAuthority").invoke(request);
      host = authority == null ? null : (String) authority.getClass().getMethod("getHostName").invoke(authority);
    }
    boolean key = (Boolean) requestType.getMethod("containsHeader", String.class).invoke(request, "Idempotency-Key");
    boolean repeatable = (Boolean) producerType.getMethod("isRepeatable").invoke(producer);
    Object started = recorder.libraryStart(HfrBridge.APACHE_HTTPCLIENT5, method, host, key, repeatable);
    synchronized (this) {
      if (call == null) {
        call = (HttpCall) started;
      }
    }
  }

  /** Classifies the attempt once; answers whether its response is dropped and the request sent again. */
  private boolean attemptEnded(int status, String[] headers, Throwable thrown) {
    HttpCall c;
    synchronized (this) {
      if (decided || call == null) {
        return retryDelayNanos >= 0;
      }
      decided = true;
      c = call;
    }
    long delay = recorder.asyncLibraryAttemptEnded(c, status, headers, thrown,
        result == null || result.isDone() || !c.retryable);
    synchronized (this) {
      retryDelayNanos = delay;
      return delay >= 0;
    }
  }

  private synchronized boolean dropping() {
    return retryDelayNanos >= 0;
  }

  /** The exchange ended: either the attempt is sent again after its delay, or the call is over. */
  private void exchangeEnded(Method method, Object[] args, Exception failure) throws Throwable {
    if (failure != null) {
      attemptEnded(0, null, failure);
    }
    long delay;
    synchronized (this) {
      delay = retryDelayNanos;
    }
    if (delay >= 0 && result != null && !result.isDone()) {
      CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS).execute(this::resend);
      return;
    }
    if (result != null) {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else if (method.getName().equals("completed")) {
        result.complete(args[0]);
      }
    }
    if (callback != null) {
      forward(callback, method, args);
    }
  }

  private void resend() {
    if (result.isDone()) {
      return;
    }
    synchronized (this) {
      decided = false;
      retryDelayNanos = -1;
      delivered = false;
      droppedResult = null;
      droppedCompleted = null;
      HttpCallRecorder.nextAttempt(call);
    }
    CallDepth.enter(HfrBridge.APACHE_HTTPCLIENT5); // the woven doExecute then leaves the attempt to this call
    try {
      result.inFlight = (Future<?>) execute.invoke(client, target, producerProxy, consumerProxy, pushHandlerFactory, context,
          callbackProxy);
    } catch (Throwable t) {
      Throwable cause = t instanceof InvocationTargetException e ? e.getCause() : t;
      result.completeExceptionally(cause);
      if (callback != null && cause instanceof Exception e) {
        try {
          callbackType.getMethod("failed", Exception.class).invoke(callback, e);
        } catch (ReflectiveOperationException | RuntimeException ignored) {
          // the future carries the failure
        }
      }
    } finally {
      CallDepth.exit(HfrBridge.APACHE_HTTPCLIENT5);
    }
  }

  private void cancelled() {
    Future<?> attempt = result.inFlight;
    if (attempt != null) {
      attempt.cancel(true);
    }
    if (callback != null) {
      try {
        callbackType.getMethod("cancelled").invoke(callback);
      } catch (ReflectiveOperationException | RuntimeException ignored) {
        // the future says it was cancelled
      }
    }
  }

  // ---- the proxies

  /** Passes everything on; wraps the request channel, which is handed the request's head. */
  private final class Producer implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      if (method.getName().equals("sendRequest") && args != null && args.length == 2 && args[0] != null) {
        Class<?> channelType = method.getParameterTypes()[0];
        Object channel = Proxy.newProxyInstance(channelType.getClassLoader(), new Class<?>[] {channelType}, new Channel(args[0]));
        return forward(producer, method, new Object[] {channel, args[1]});
      }
      return forward(producer, method, args);
    }
  }

  /** Reads the request's head on its way to the connection. */
  private final class Channel implements InvocationHandler {
    private final Object channel;

    Channel(Object channel) {
      this.channel = channel;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      if (method.getName().equals("sendRequest") && args != null && args.length > 0 && args[0] != null) {
        try {
          requestSent(args[0], method.getParameterTypes()[0]);
        } catch (Throwable t) {
          HfrBridge.fail(HfrBridge.APACHE_HTTPCLIENT5, t);
        }
      }
      return forward(channel, method, args);
    }
  }

  /** Classifies the response's head; reads and drops the body of a response the agent will not hand on. */
  private final class Consumer implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      switch (method.getName()) {
        case "consumeResponse" -> {
          if (responseDropped(method, args)) {
            return null;
          }
        }
        case "updateCapacity" -> {
          if (dropping()) {
            method.getParameterTypes()[0].getMethod("update", int.class).invoke(args[0], Integer.MAX_VALUE);
            return null;
          }
        }
        case "consume" -> {
          if (dropping()) {
            ByteBuffer data = (ByteBuffer) args[0];
            data.position(data.limit());
            return null;
          }
        }
        case "streamEnd" -> {
          if (dropping()) {
            completeDropped();
            return null;
          }
        }
        case "failed" -> {
          boolean handedOn;
          synchronized (ApacheAsyncCall.this) {
            handedOn = delivered;
          }
          if (!handedOn && attemptEnded(0, null, (Throwable) args[0])) {
            return null;
          }
        }
        case "releaseResources", "informationResponse" -> {
          if (dropping()) {
            return null;
          }
        }
        default -> {
          // passed on
        }
      }
      return forward(consumer, method, args);
    }

    /** {@code consumeResponse(HttpResponse, EntityDetails, HttpContext, FutureCallback)}. */
    private boolean responseDropped(Method method, Object[] args) throws ReflectiveOperationException {
      Object response = args[0];
      Class<?> responseType = method.getParameterTypes()[0];
      int status = (Integer) responseType.getMethod("getCode").invoke(response);
      String[] headers = null;
      if (status >= 400) {
        String[] names = HfrBridge.rateLimitHeaders();
        headers = new String[names.length];
        Method first = responseType.getMethod("getFirstHeader", String.class);
        Method value = first.getReturnType().getMethod("getValue");
        for (int i = 0; i < names.length; i++) {
          Object header = first.invoke(response, names[i]);
          headers[i] = header == null ? null : (String) value.invoke(header);
        }
      }
      boolean drop;
      try {
        drop = attemptEnded(status, headers, null);
      } catch (Throwable t) {
        HfrBridge.fail(HfrBridge.APACHE_HTTPCLIENT5, t);
        drop = false;
      }
      if (!drop) {
        synchronized (ApacheAsyncCall.this) {
          delivered = true;
        }
        return false;
      }
      synchronized (ApacheAsyncCall.this) {
        droppedResult = args[3];
        droppedCompleted = method.getParameterTypes()[3].getMethod("completed", Object.class);
      }
      if (args[1] == null) {
        completeDropped(); // no body
      }
      return true;
    }

    private void completeDropped() throws ReflectiveOperationException {
      Object resultCallback;
      Method completed;
      synchronized (ApacheAsyncCall.this) {
        resultCallback = droppedResult;
        completed = droppedCompleted;
        droppedResult = null;
      }
      if (resultCallback != null) {
        completed.invoke(resultCallback, (Object) null);
      }
    }
  }

  /** The end of each attempt's exchange: a retry, or the application's callback. */
  private final class Callback implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      switch (method.getName()) {
        case "completed" -> exchangeEnded(method, args, null);
        case "failed" -> exchangeEnded(method, args, (Exception) args[0]);
        case "cancelled" -> {
          if (result != null) {
            result.cancel(false);
          } else if (callback != null) {
            forward(callback, method, args);
          }
        }
        default -> {
          return callback == null ? null : forward(callback, method, args);
        }
      }
      return null;
    }
  }

  /** The future the application gets under enforcement. */
  static final class Result extends CompletableFuture<Object> {
    private final ApacheAsyncCall call;
    volatile Future<?> inFlight;

    Result(ApacheAsyncCall call) {
      this.call = call;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        call.cancelled();
      }
      return cancelled;
    }
  }

  // ----

  private static Object forward(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "hfr-agent " + proxy.getClass().getInterfaces()[0].getSimpleName();
    };
  }

  /** {@code CloseableHttpAsyncClient.execute(HttpHost, ...)} with six parameters, or {@code null} (then no retry). */
  private static Method executeMethod(Object client) {
    for (Method m : client.getClass().getMethods()) {
      if (m.getName().equals("execute") && m.getParameterCount() == 6
          && m.getParameterTypes()[0].getName().equals("org.apache.hc.core5.http.HttpHost")) {
        return m;
      }
    }
    return null;
  }
}
