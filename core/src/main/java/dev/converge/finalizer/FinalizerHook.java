package dev.converge.finalizer;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Cleans up what the garbage collector cannot: resources outside the cluster (a cloud database, a DNS
 * record) that belong to a primary being deleted. Runs while the primary still exists, because its
 * finalizer holds the deletion until the hook reports {@link CleanupResult#done()}.
 *
 * <p>Must be idempotent: it runs again after a failure, after a restart, and possibly for an object
 * whose external resources are already gone. Throwing keeps the finalizer and the reconcile is
 * retried with backoff.
 */
@FunctionalInterface
public interface FinalizerHook<P extends HasMetadata> {

  CleanupResult cleanup(P primary) throws Exception;
}
