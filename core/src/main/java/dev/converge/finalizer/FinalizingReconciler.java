package dev.converge.finalizer;

import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import dev.converge.retry.ConflictRetry;
import dev.converge.retry.Pause;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Puts the finalizer protocol in front of a reconciler, so the reconciler itself only ever sees
 * live primaries that already carry the finalizer:
 *
 * <pre>{@code
 * Reconciler<Database> reconciler = FinalizingReconciler.wrap(
 *     "example.com/drop-database",
 * (db, context) -> { cloud.drop(db.getSpec().getName()); return CleanupResult.done(); },
 *     new DatabaseReconciler());
 * }</pre>
 *
 * <p>Outcomes map onto {@link Result}: a primary being deleted ends with {@link Result#done()} once
 * cleanup finished (or when the finalizer is not ours), with {@link Result#requeueAfter} while
 * cleanup is pending, and a failing cleanup throws {@link FinalizerCleanupException}, which the
 * runtime retries with backoff while the finalizer keeps the object.
 *
 * @param <P> the primary kind
 */
public final class FinalizingReconciler<P extends HasMetadata> implements Reconciler<P> {

  private final String finalizer;
  private final FinalizerHook<P> hook;
  private final Reconciler<P> delegate;

  private FinalizingReconciler(String finalizer, FinalizerHook<P> hook, Reconciler<P> delegate) {
    this.finalizer = Objects.requireNonNull(finalizer, "finalizer");
    this.hook = Objects.requireNonNull(hook, "hook");
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /**
   * Puts the protocol for {@code finalizer} in front of {@code delegate}. Conflicts while adding or
   * removing the finalizer are retried without sleeping; when they persist, the reconcile fails and
   * the work queue's backoff spaces the next try.
   *
   * @param <P> the primary kind
   * @param finalizer a domain-qualified name such as {@code example.com/cleanup}
   * @param hook the cleanup to run when the primary is deleted
   * @param delegate the reconciler of live primaries
   * @return a reconciler that runs the protocol, then {@code delegate} when the primary is live
   */
  public static <P extends HasMetadata> Reconciler<P> wrap(
      String finalizer, FinalizerHook<P> hook, Reconciler<P> delegate) {
    return new FinalizingReconciler<>(finalizer, hook, delegate);
  }

  @Override
  public Result reconcile(P primary, Context<P> context) throws Exception {
    Finalization<P> finalization =
        new Finalization<>(
            new Finalizers(context.client(), ConflictRetry.defaults().withPause(Pause.none())),
            finalizer,
            hook);
    FinalizationOutcome<P> outcome = finalization.apply(primary, context);
    if (outcome instanceof FinalizationOutcome.Proceed<P> proceed) {
      return delegate.reconcile(proceed.primary(), context);
    }
    if (outcome instanceof FinalizationOutcome.CleanupPending<P> pending) {
      return Result.requeueAfter(pending.delay());
    }
    return Result.done();
  }
}
