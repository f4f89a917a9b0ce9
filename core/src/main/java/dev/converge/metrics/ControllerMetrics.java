package dev.converge.metrics;

import dev.converge.queue.QueueListener;
import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What the runtime reports about each controller. {@link MicrometerControllerMetrics} records it in
 * a Micrometer registry; {@link #none()} drops it.
 */
public interface ControllerMetrics {

  /** One reconcile of {@code controller} ended with {@code outcome} after {@code duration}. */
  void reconciled(String controller, ReconcileOutcome outcome, Duration duration);

  /** A listener for the work queue of {@code controller} (depth, wait time, retries). */
  QueueListener queue(String controller);

  /** Registers how many reconciles of {@code controller} are running right now. */
  void activeWorkers(String controller, IntSupplier active);

  /** Registers how many worker loops of {@code controller} are alive (0 when stopped). */
  default void workersAlive(String controller, IntSupplier alive) {}

  /**
   * Registers how many reconciles of {@code controller} run past their deadline now (reported as
   * hung and not yet ended).
   */
  default void reconcilesHung(String controller, IntSupplier hung) {}

  /**
   * A reconcile of {@code controller} ran past its deadline: counted once per reconcile, when the
   * deadline passes.
   */
  default void reconcileDeadlineExceeded(String controller) {}

  /**
   * An object of {@code kind} was left out of {@code place} ({@code index}, {@code watch}) because
   * a user function failed on it.
   */
  default void objectRejected(String kind, String place) {}

  /**
   * A list or watch of {@code kind} failed; {@code reason} is the HTTP status class ({@code
   * forbidden}, {@code not-found}, {@code gone}, {@code unreadable}, {@code other}).
   */
  default void informerError(String kind, String reason) {}

  /**
   * Registers a gauge that reads 1 while the operator may not use {@code verb} on {@code resource}
   * (e.g. {@code deployments.apps}, {@code appdeployments.apps.converge.dev/status}) in {@code
   * namespace} (empty: cluster-wide), as an access review found or a refusal showed, else 0.
   */
  default void accessDenied(String resource, String verb, String namespace, IntSupplier denied) {}

  /** Counts a request of the operator the API server refused with 403 Forbidden. */
  default void accessRefused(String resource, String verb) {}

  /**
   * A reconcile of {@code controller} ended because the API server refused a write as such (see
   * {@code dev.converge.reconcile.Refusal}): {@code kind} is the refused object's kind, {@code
   * reason} the refusal's tag ({@code invalid}, {@code admission-denied}, {@code quota-exceeded},
   * {@code namespace-terminating}, {@code pod-security}, {@code forbidden}).
   */
  default void refused(String controller, String kind, String reason) {}

  /**
   * An Event was not written; {@code reason} is {@code rate-limited} (its object used up its
   * writes), {@code queue-full} or {@code stopped}.
   */
  default void eventDropped(String reason) {}

  /**
   * Registers the count of writes a leader-elected operator did not send because its hold on the
   * Lease was not current (the fence was closed).
   */
  default void writesFenced(LongSupplier fenced) {}

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
