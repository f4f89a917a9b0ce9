package dev.converge.metrics;

import dev.converge.queue.QueueListener;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * What the runtime reports about each controller. {@link MicrometerControllerMetrics} records it
 * in a Micrometer registry; {@link #none()} drops it.
 */
public interface ControllerMetrics {

  /** One reconcile of {@code controller} ended with {@code outcome} after {@code duration}. */
  void reconciled(String controller, ReconcileOutcome outcome, Duration duration);

  /** A listener for the work queue of {@code controller} (depth, wait time, retries). */
  QueueListener queue(String controller);

  /** Registers how many reconciles of {@code controller} are running right now. */
  void activeWorkers(String controller, IntSupplier active);

  /** Metrics that record nothing. */
  static ControllerMetrics none() {
    return new ControllerMetrics() {
      @Override
      public void reconciled(String controller, ReconcileOutcome outcome, Duration duration) {}

      @Override
      public QueueListener queue(String controller) {
        return QueueListener.none();
      }

      @Override
      public void activeWorkers(String controller, IntSupplier active) {}
    };
  }
}
