package dev.converge.queue;

/**
 * Observes a work queue, for metrics. Every method has an empty default; implementations must be
 * cheap and must not throw, because they run under the queue's lock.
 */
public interface QueueListener {

  /** A key became ready for a worker; {@code depth} is the number of ready keys now. */
  default void added(int depth) {}

  /** A worker took a key that had waited {@code waitNanos} since it became ready. */
  default void taken(long waitNanos, int depth) {}

  /** A key was scheduled for another attempt after a failure. */
  default void retried() {}

  /** A listener that records nothing. */
  static QueueListener none() {
    return new QueueListener() {};
  }
}
