package dev.converge.queue.internal;

/**
 * A monotonic time source for the work queue. Production code uses {@link #system()}; tests use
 * {@link ManualTicker} so that delays and backoff can be proven without sleeping.
 */
public interface Ticker {

  /**
   * Reads the time.
   *
   * @return monotonic nanoseconds; only differences between two readings mean anything
   */
  long nanoTime();

  /**
   * Registers a callback run whenever time jumps forward by other means than its natural flow (a
   * manual ticker being advanced). Waiting consumers use it to re-examine delayed items. The system
   * ticker never calls it: timed waits cover the natural flow of time.
   *
   * @param listener run after each jump, on the thread that made it
   */
  default void onAdvance(Runnable listener) {}

  /**
   * The JVM's monotonic clock ({@link System#nanoTime()}).
   *
   * @return the ticker production code uses
   */
  static Ticker system() {
    return System::nanoTime;
  }
}
