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
 * <p>{@code extraAccess} lists what the reconciler does by hand through {@code context.client()}
 * beyond what the runtime can see in the definition ({@link ControllerBuilder#alsoUses}); it goes
 * into the operator's generated RBAC rules.
 *
 * <p>{@code maxConcurrentReconciles} is how many primaries are reconciled at once; 0 leaves it to
 * the operator ({@code OperatorBuilder.workers}).
 *
 * <p>{@code reconcileDeadline} is how long one reconcile may run before the runtime reports it as
 * hung (empty: the operator's default, {@code OperatorBuilder.reconcileDeadline}); {@code
 * interruptPastDeadline} says whether the runtime also interrupts its worker thread then (see
 * {@link ControllerBuilder#reconcileDeadline} and {@link ControllerBuilder#interruptPastDeadline}).
 *
 * @param <P> the primary kind
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
    boolean interruptPastDeadline) {

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
   * As before reconcile deadlines existed: the operator's default deadline, reported but never
   * interrupted.
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
        false);
  }

  /** As before extra access existed: a controller that uses nothing beyond its definition. */
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

  /** This definition reconciling {@code count} primaries at once. */
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
        interruptPastDeadline);
  }
}
