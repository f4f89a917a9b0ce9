package dev.converge.finalizer;

import java.time.Duration;

/**
 * What {@link Finalization#apply} found and did; tells the reconciler how to go on.
 *
 * @param <P> the primary kind
 */
public sealed interface FinalizationOutcome<P> {

  /**
   * The primary is not being deleted and carries the finalizer now; reconcile it as usual, with
   * {@link #primary()} (the stored copy after the finalizer was added, or the input).
   *
   * @param <P> the primary kind
   * @param primary the primary to reconcile
   */
  record Proceed<P>(P primary) implements FinalizationOutcome<P> {}

  /**
   * The primary was being deleted, cleanup succeeded and the finalizer is removed; stop here.
   *
   * @param <P> the primary kind
   */
  record Finalized<P>() implements FinalizationOutcome<P> {}

  /**
   * Cleanup is still in progress; the finalizer stays; reconcile again after {@code delay}.
   *
   * @param <P> the primary kind
   * @param delay when to reconcile again, as the hook asked
   */
  record CleanupPending<P>(Duration delay) implements FinalizationOutcome<P> {}

  /**
   * The primary is being deleted but does not carry this finalizer (already finalized, or never
   * added); there is nothing to clean up; stop here.
   *
   * @param <P> the primary kind
   */
  record NotOurs<P>() implements FinalizationOutcome<P> {}
}
