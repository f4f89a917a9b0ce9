package dev.converge.finalizer;

import dev.converge.reconcile.Context;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Cleans up what the garbage collector cannot: resources outside the cluster (a cloud database, a
 * DNS record) that belong to a primary being deleted. Runs while the primary still exists, because
 * its finalizer holds the deletion until the hook reports {@link CleanupResult#done()}.
 *
 * <p>Must be idempotent: it runs again after a failure, after a restart, and possibly for an object
 * whose external resources are already gone. Throwing keeps the finalizer and the reconcile is
 * retried with backoff.
 *
 * <p>The hook gets the reconcile's {@link Context}: its client, its cached reads, its {@code
 * events()} to tell the user what cleanup is waiting for, and {@code owned(type)} for objects the
 * primary controls.
 *
 * @param <P> the primary kind
 */
@FunctionalInterface
public interface FinalizerHook<P extends HasMetadata> {

  /**
   * Cleans up after {@code primary}, which is being deleted and still carries the finalizer.
   *
   * @param primary the primary being deleted; do not change it
   * @param context the reconcile's context
   * @return {@link CleanupResult#done()} when nothing is left, or {@link CleanupResult#retryAfter}
   *     while an external deletion is still under way
   * @throws Exception when cleanup failed; the finalizer stays and the reconcile is retried with
   *     backoff
   */
  CleanupResult cleanup(P primary, Context<P> context) throws Exception;
}
