package dev.converge.queue;

/**
 * Observes a work queue, for metrics. Every method has an empty default; implementations must be
 * cheap and must not throw, because they run under the queue's lock.
 */
public interface QueueListener {

  /**
   * A key became ready for a worker.
   *
   * @param depth the number of ready keys now
   */
  default void added(int depth) {}

  /**
   * A worker took a key.
   *
   * @param waitNanos how long the key waited since it became ready, in nanoseconds
   * @param depth the number of ready keys left
   */
  default void taken(long waitNanos, int depth) {}

  /** A key was scheduled for another attempt after a failure. */
  default void retried() {}

  /**
   * A listener that records nothing, for queues without metrics.
   *
   * @return a listener whose methods do nothing
   */
  static QueueListener none() {
    return new QueueListener() {};
  }
}
