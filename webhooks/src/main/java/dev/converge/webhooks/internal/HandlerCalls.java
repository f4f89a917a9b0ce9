package dev.converge.webhooks.internal;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs user handlers with a deadline, so that a handler that hangs becomes an answer with a message
 * rather than a request the API server abandons.
 */
public final class HandlerCalls implements AutoCloseable {

  /** Why a handler gave no result: it threw, or it ran past its deadline. */
  public static final class HandlerFailure extends Exception {
    private static final long serialVersionUID = 1L;

    HandlerFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final ExecutorService pool;

  public HandlerCalls() {
    AtomicInteger count = new AtomicInteger();
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "converge-webhook-handler-" + count.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  public <V> V call(Callable<V> handler, Duration deadline) throws HandlerFailure {
    Future<V> future = pool.submit(handler);
    try {
      return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new HandlerFailure("did not answer within " + deadline.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new HandlerFailure(
          cause.getClass().getSimpleName()
              + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
          cause);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new HandlerFailure("interrupted while the server stops", e);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
