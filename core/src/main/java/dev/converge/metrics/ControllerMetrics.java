package dev.converge.metrics;

import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What the runtime reports about each controller. {@link MicrometerControllerMetrics} records it in
 * a Micrometer registry; {@link #none()} drops it.
 */
public interface ControllerMetrics {

  /**
   * One reconcile of {@code controller} ended with {@code outcome} after {@code duration}.
   *
   * @param controller the controller's name
   * @param outcome how the reconcile ended
   * @param duration how long the reconciler ran
   */
  void reconciled(String controller, ReconcileOutcome outcome, Duration duration);

  /**
   * A listener for the work queue of {@code controller} (depth, wait time, retries). Called once
   * per controller, when its queue is made.
   *
   * @param controller the controller's name
   * @return the listener the queue reports to
   */
  QueueListener queue(String controller);

  /**
   * Registers how many reconciles of {@code controller} are running right now.
   *
   * @param controller the controller's name
   * @param active read whenever the metric is collected
   */
  void activeWorkers(String controller, IntSupplier active);

  /**
   * Registers how many worker loops of {@code controller} are alive (0 when stopped). Default:
   * nothing recorded.
   *
   * @param controller the controller's name
   * @param alive read whenever the metric is collected
   */
  default void workersAlive(String controller, IntSupplier alive) {}

  /**
   * Registers how many reconciles of {@code controller} run past their deadline now (reported as
   * hung and not yet ended). Default: nothing recorded.
   *
   * @param controller the controller's name
   * @param hung read whenever the metric is collected
   */
  default void reconcilesHung(String controller, IntSupplier hung) {}

  /**
   * A reconcile of {@code controller} ran past its deadline: counted once per reconcile, when the
   * deadline passes. Default: nothing recorded.
   *
   * @param controller the controller's name
   */
  default void reconcileDeadlineExceeded(String controller) {}

  /**
   * An object of {@code kind} was left out of {@code place} ({@code index}, {@code watch}) because
   * a user function failed on it. Default: nothing recorded.
   *
   * @param kind the object's kind
   * @param place where it was left out: {@code index} or {@code watch}
   */
  default void objectRejected(String kind, String place) {}

  /**
   * A list or watch of {@code kind} failed; {@code reason} is the HTTP status class ({@code
   * forbidden}, {@code not-found}, {@code gone}, {@code unreadable}, {@code other}). Default:
   * nothing recorded.
   *
   * @param kind the kind the informer lists and watches
   * @param reason the class of the failure
   */
  default void informerError(String kind, String reason) {}

  /**
   * Registers a gauge that reads 1 while the operator may not use {@code verb} on {@code resource}
   * (e.g. {@code deployments.apps}, {@code appdeployments.apps.converge.dev/status}) in {@code
   * namespace} (empty: cluster-wide), as an access review found or a refusal showed, else 0.
   * Default: nothing recorded.
   *
   * @param resource the resource, with its API group and subresource when it has them
   * @param verb the RBAC verb, e.g. {@code list}
   * @param namespace the namespace; empty for cluster-wide
   * @param denied read whenever the metric is collected: 1 while denied, else 0
   */
  default void accessDenied(String resource, String verb, String namespace, IntSupplier denied) {}

  /**
   * Counts a request of the operator the API server refused with 403 Forbidden. Default: nothing
   * recorded.
   *
   * @param resource the resource, with its API group and subresource when it has them
   * @param verb the RBAC verb of the request
   */
  default void accessRefused(String resource, String verb) {}

  /**
   * A reconcile of {@code controller} ended because the API server refused a write as such (see
   * {@code dev.converge.reconcile.Refusal}): {@code kind} is the refused object's kind, {@code
   * reason} the refusal's tag ({@code invalid}, {@code admission-denied}, {@code quota-exceeded},
   * {@code namespace-terminating}, {@code pod-security}, {@code forbidden}). Default: nothing
   * recorded.
   *
   * @param controller the controller's name
   * @param kind the refused object's kind
   * @param reason the refusal's tag
   */
  default void refused(String controller, String kind, String reason) {}

  /**
   * A pruning controller deleted an object of {@code kind} it controls because the reconcile of its
   * primary no longer applied it (see {@code ControllerBuilder.pruneOwned}). Default: nothing
   * recorded.
   *
   * @param controller the controller's name
   * @param kind the deleted object's kind
   */
  default void pruned(String controller, String kind) {}

  /**
   * An Event was not written; {@code reason} is {@code rate-limited} (its object used up its
   * writes), {@code queue-full} or {@code stopped}. Default: nothing recorded.
   *
   * @param reason why it was dropped
   */
  default void eventDropped(String reason) {}

  /**
   * Registers the count of writes a leader-elected operator did not send because its hold on the
   * Lease was not current (the fence was closed). Default: nothing recorded.
   *
   * @param fenced read whenever the metric is collected; only grows
   */
  default void writesFenced(LongSupplier fenced) {}

  /**
   * Metrics that record nothing, for an operator without a registry (tests, tools).
   *
   * @return metrics whose every method does nothing
   */
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

  /** How one reconcile ended, as counted in metrics (tag {@code result}). */
  enum ReconcileOutcome {
    /** {@code Result.done()}. */
    SUCCESS("success"),
    /** The reconciler threw; retried with backoff. */
    ERROR("error"),
    /** {@code Result.requeue()}. */
    REQUEUE("requeue"),
    /** {@code Result.requeueAfter(d)}. */
    REQUEUE_AFTER("requeue-after"),
    /** {@code Result.permanentFailure(...)}. */
    PERMANENT("permanent");

    private final String tag;

    ReconcileOutcome(String tag) {
      this.tag = tag;
    }

    /**
     * The tag value used in metrics, stable across releases so that dashboards and alerts keep
     * working.
     *
     * @return the value of the tag {@code result}, e.g. {@code requeue-after}
     */
    public String tag() {
      return tag;
    }
  }

  /**
   * Observes a work queue, for metrics. Every method has an empty default; implementations must be
   * cheap and must not throw, because they run under the queue's lock.
   */
  interface QueueListener {

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
}
