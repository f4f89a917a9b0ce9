package dev.converge.builder;

import dev.converge.queue.ExponentialBackoff;
import dev.converge.rbac.AccessRule;
import dev.converge.reconcile.Reconciler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A complete description of one controller, ready to be run by an operator: what it reconciles,
 * which events wake it, and how. Build one with {@link ControllerBuilder}.
 *
 * @param <P> the primary kind
 * @param name the controller's name, in its logs, metrics and leader election
 * @param primaryType the class of the kind it reconciles
 * @param watches the event sources besides the primary's own
 * @param indexes the secondary indexes it needs on the informer caches
 * @param reconciler what runs for each primary key
 * @param maxConcurrentReconciles how many primaries are reconciled at once; 0 leaves it to the
 *     operator ({@code OperatorBuilder.workers})
 * @param reconcileEvery the interval of a periodic reconcile of every primary; empty for none
 * @param backoff the per-key delays of retries after failures
 * @param extraAccess what the reconciler does by hand through {@code context.client()} beyond what
 *     the runtime can see in the definition ({@link ControllerBuilder#alsoUses}); it goes into the
 *     operator's generated RBAC rules
 * @param reconcileDeadline how long one reconcile may run before the runtime reports it as hung
 *     (empty: the operator's default, {@code OperatorBuilder.reconcileDeadline}; see {@link
 *     ControllerBuilder#reconcileDeadline})
 * @param interruptPastDeadline whether the runtime also interrupts the worker thread of a reconcile
 *     past its deadline (see {@link ControllerBuilder#interruptPastDeadline})
 * @param pruneOwned whether the runtime deletes, after a reconcile that ends done, the objects of
 *     the owned kinds this primary controls that the reconcile no longer applied (see {@link
 *     ControllerBuilder#pruneOwned})
 */
public record ControllerDefinition<P extends HasMetadata>(
    String name,
    Class<P> primaryType,
    List<WatchDefinition<?>> watches,
    List<IndexDefinition<?>> indexes,
    Reconciler<P> reconciler,
    int maxConcurrentReconciles,
    Optional<Duration> reconcileEvery,
    ExponentialBackoff backoff,
    List<AccessRule> extraAccess,
    Optional<Duration> reconcileDeadline,
    boolean interruptPastDeadline,
    boolean pruneOwned) {

  /**
   * Checks the definition and copies its lists, so that a bad setting fails while the operator is
   * built and a definition never changes once made.
   *
   * @param name the controller's name
   * @param primaryType the class of the kind it reconciles
   * @param watches the event sources besides the primary's own
   * @param indexes the secondary indexes it needs on the informer caches
   * @param reconciler what runs for each primary key
   * @param maxConcurrentReconciles how many primaries are reconciled at once; 0 for the operator's
   *     workers
   * @param reconcileEvery the interval of a periodic reconcile; empty for none
   * @param backoff the per-key delays of retries after failures
   * @param extraAccess what the reconciler does by hand beyond its definition
   * @param reconcileDeadline how long one reconcile may run; empty for the operator's default
   * @param interruptPastDeadline whether a reconcile past its deadline is interrupted
   * @param pruneOwned whether owned objects no longer applied are deleted after a done reconcile
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when {@code reconcileDeadline} is not positive or {@code
   *     maxConcurrentReconciles} is negative; the message names the controller
   */
  public ControllerDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(primaryType, "primaryType");
    watches = List.copyOf(watches);
    indexes = List.copyOf(indexes);
    Objects.requireNonNull(reconciler, "reconciler");
    Objects.requireNonNull(reconcileEvery, "reconcileEvery");
    Objects.requireNonNull(backoff, "backoff");
    extraAccess = List.copyOf(extraAccess);
    Objects.requireNonNull(reconcileDeadline, "reconcileDeadline");
    reconcileDeadline.ifPresent(
        deadline -> {
          if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException(
                "controller " + name + ": reconcileDeadline must be positive, got " + deadline);
          }
        });
    if (maxConcurrentReconciles < 0) {
      throw new IllegalArgumentException(
          "controller "
              + name
              + ": maxConcurrentReconciles must be at least 1 (or 0 for the operator's workers),"
              + " got "
              + maxConcurrentReconciles);
    }
  }

  /**
   * As before pruning existed: a controller that never deletes what it no longer applies. Kept so
   * that code written for that version still compiles.
   *
   * @param name the controller's name
   * @param primaryType the class of the kind it reconciles
   * @param watches the event sources besides the primary's own
   * @param indexes the secondary indexes it needs on the informer caches
   * @param reconciler what runs for each primary key
   * @param maxConcurrentReconciles how many primaries are reconciled at once; 0 for the operator's
   *     workers
   * @param reconcileEvery the interval of a periodic reconcile; empty for none
   * @param backoff the per-key delays of retries after failures
   * @param extraAccess what the reconciler does by hand beyond its definition
   * @param reconcileDeadline how long one reconcile may run; empty for the operator's default
   * @param interruptPastDeadline whether a reconcile past its deadline is interrupted
   */
  public ControllerDefinition(
      String name,
      Class<P> primaryType,
      List<WatchDefinition<?>> watches,
      List<IndexDefinition<?>> indexes,
      Reconciler<P> reconciler,
      int maxConcurrentReconciles,
      Optional<Duration> reconcileEvery,
      ExponentialBackoff backoff,
      List<AccessRule> extraAccess,
      Optional<Duration> reconcileDeadline,
      boolean interruptPastDeadline) {
    this(
        name,
        primaryType,
        watches,
        indexes,
        reconciler,
        maxConcurrentReconciles,
        reconcileEvery,
        backoff,
        extraAccess,
        reconcileDeadline,
        interruptPastDeadline,
        false);
  }

  /**
   * As before reconcile deadlines existed: the operator's default deadline, reported but never
   * interrupted. Kept so that code written for that version still compiles.
   *
   * @param name the controller's name
   * @param primaryType the class of the kind it reconciles
   * @param watches the event sources besides the primary's own
   * @param indexes the secondary indexes it needs on the informer caches
   * @param reconciler what runs for each primary key
   * @param maxConcurrentReconciles how many primaries are reconciled at once; 0 for the operator's
   *     workers
   * @param reconcileEvery the interval of a periodic reconcile; empty for none
   * @param backoff the per-key delays of retries after failures
   * @param extraAccess what the reconciler does by hand beyond its definition
   */
  public ControllerDefinition(
      String name,
      Class<P> primaryType,
      List<WatchDefinition<?>> watches,
      List<IndexDefinition<?>> indexes,
      Reconciler<P> reconciler,
      int maxConcurrentReconciles,
      Optional<Duration> reconcileEvery,
      ExponentialBackoff backoff,
      List<AccessRule> extraAccess) {
    this(
        name,
        primaryType,
        watches,
        indexes,
        reconciler,
        maxConcurrentReconciles,
        reconcileEvery,
        backoff,
        extraAccess,
        Optional.empty(),
        false,
        false);
  }

  /**
   * As before extra access existed: a controller that uses nothing beyond its definition. Kept so
   * that code written for that version still compiles.
   *
   * @param name the controller's name
   * @param primaryType the class of the kind it reconciles
   * @param watches the event sources besides the primary's own
   * @param indexes the secondary indexes it needs on the informer caches
   * @param reconciler what runs for each primary key
   * @param maxConcurrentReconciles how many primaries are reconciled at once; 0 for the operator's
   *     workers
   * @param reconcileEvery the interval of a periodic reconcile; empty for none
   * @param backoff the per-key delays of retries after failures
   */
  public ControllerDefinition(
      String name,
      Class<P> primaryType,
      List<WatchDefinition<?>> watches,
      List<IndexDefinition<?>> indexes,
      Reconciler<P> reconciler,
      int maxConcurrentReconciles,
      Optional<Duration> reconcileEvery,
      ExponentialBackoff backoff) {
    this(
        name,
        primaryType,
        watches,
        indexes,
        reconciler,
        maxConcurrentReconciles,
        reconcileEvery,
        backoff,
        List.of());
  }

  /**
   * This definition reconciling {@code count} primaries at once.
   *
   * @param count how many primaries at once; 0 for the operator's workers
   * @return a new definition; this one is unchanged
   * @throws IllegalArgumentException when {@code count} is negative
   */
  public ControllerDefinition<P> withMaxConcurrentReconciles(int count) {
    return new ControllerDefinition<>(
        name,
        primaryType,
        watches,
        indexes,
        reconciler,
        count,
        reconcileEvery,
        backoff,
        extraAccess,
        reconcileDeadline,
        interruptPastDeadline,
        pruneOwned);
  }
}
