package dev.converge.operator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * Keeps the JDK's asynchronous stages on pooled threads on small machines.
 *
 * <p>{@code CompletableFuture} runs an asynchronous stage given no executor on the common {@code
 * ForkJoinPool} only when that pool's parallelism is at least 2; below that, it starts a new thread
 * for every such stage. The pool's parallelism defaults to one less than the processors the JVM
 * sees, so a JVM limited to one or two CPUs (a typical operator pod) starts a thread per stage. The
 * JDK's HTTP client, which fabric8's {@code kubernetes-httpclient-jdk} uses, hands the completion
 * of every response to such a stage: every API request then costs the start and end of a thread (on
 * two cores, about three thread starts per reconciled object).
 *
 * <p>{@link #ensureAsyncPool()} sets {@value #PARALLELISM} to 2 in that case, which must happen
 * before anything in the JVM first uses {@code CompletableFuture}; {@code
 * dev.converge.cli.OperatorProcess#run} does it first thing. Elsewhere, start the JVM with {@code
 * -Djava.util.concurrent.ForkJoinPool.common.parallelism=2}. {@code Operator.start()} logs a
 * warning when it finds stages still on threads of their own.
 */
final class CommonPool {

  /** The system property the common pool's parallelism is read from, once. */
  public static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  private CommonPool() {}

  /**
   * Gives the common pool a parallelism of 2 when the JVM would give it less and nobody set the
   * property; has an effect only before the JVM first uses {@code CompletableFuture}.
   *
   * @return whether asynchronous stages now run on the common pool
   */
  public static boolean ensureAsyncPool() {
    if (System.getProperty(PARALLELISM) == null
        && Runtime.getRuntime().availableProcessors() <= 2) {
      System.setProperty(PARALLELISM, "2");
    }
    return sharesThreads();
  }

  /**
   * True when {@code CompletableFuture} runs asynchronous stages given no executor on the common
   * pool; false when it starts a thread for each.
   */
  public static boolean sharesThreads() {
    return new CompletableFuture<Void>().defaultExecutor() == ForkJoinPool.commonPool();
  }
}
