package dev.converge.retry;

import java.time.Duration;

/**
 * How a retry waits between attempts. The default sleeps the calling thread for the (small,
 * bounded) delay; tests and runtimes that must not hold a worker inject their own.
 */
@FunctionalInterface
public interface Pause {

  /**
   * Waits for {@code delay}. Implementations must preserve the thread's interrupt status.
   *
   * @param delay how long to wait; never negative
   * @throws InterruptedException when the thread is interrupted while waiting; the retry then stops
   *     and reports the write as cancelled
   */
  void pause(Duration delay) throws InterruptedException;

  /**
   * Does not wait: the next attempt re-reads and retries at once. For code on a reconcile worker,
   * which must not sleep; if conflicts persist, the attempts run out and the reconcile fails, and
   * the work queue's backoff spaces the next try.
   *
   * @return a pause that returns at once
   */
  static Pause none() {
    return delay -> {};
  }

  /**
   * Sleeps the calling thread. Only suitable because {@link ConflictRetry} bounds the total wait.
   *
   * @return a pause that sleeps for the delay
   */
  static Pause sleeping() {
    return delay -> Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
  }
}
