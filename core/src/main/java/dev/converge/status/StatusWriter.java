package dev.converge.status;

import dev.converge.status.internal.MergePatchStatusWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Consumer;

/**
 * Writes an object's status through its {@code status} subresource with a JSON merge patch computed
 * from the object as read and the object with its new status.
 *
 * <ul>
 *   <li>No request at all when the status did not change, so a steady-state reconcile writes
 *       nothing and triggers no watch event.
 *   <li>Only status is sent (and only to {@code /status}); spec or metadata changes on the object
 *       passed in are not written.
 *   <li>By default the patch is last-write-wins for the fields it names. {@link
 *       #withOptimisticLock()} adds {@code metadata.resourceVersion} so that a write based on a
 *       stale read fails with 409 Conflict instead. A patch that replaces a list (such as {@code
 *       conditions}) always carries it: a merge patch sends lists whole, so a list built from a
 *       stale read would drop entries another writer added since.
 * </ul>
 *
 * <p>Typical use at the end of a reconcile, with {@code app} the primary as read from the cache:
 *
 * <pre>{@code
 * context.status().update(app, a -> {
 *   a.getStatus().setReadyReplicas(ready);
 *   a.getStatus().setConditions(conditions.set(a.getStatus().getConditions(), a, "Ready",
 *       ConditionStatus.of(ready == wanted), "Rollout", ready + " of " + wanted + " ready"));
 * });
 * }</pre>
 *
 * <p>With the optimistic lock, a stale write throws a 409 {@code KubernetesClientException}; either
 * let the reconcile be retried, or wrap the write in {@link dev.converge.retry.ConflictRetry#call}
 * with a fresh read per attempt.
 */
public interface StatusWriter {

  /**
   * Copies {@code asRead}, applies {@code change} to the copy's status and writes the difference.
   * {@code asRead} itself is never modified (it may belong to an informer cache).
   *
   * @param <T> the object's type
   * @param asRead the object as read, typically the primary from the cache
   * @param change sets the new status on a copy of {@code asRead}
   * @return what was written, and the object to continue with
   */
  <T extends HasMetadata> StatusOutcome<T> update(T asRead, Consumer<T> change);

  /**
   * Writes the difference between {@code asRead}'s status and {@code withNewStatus}'s status.
   * Neither object is modified.
   *
   * @param <T> the object's type
   * @param asRead the object as read; its status is the base of the patch
   * @param withNewStatus the same object carrying the wanted status
   * @return what was written, and the object to continue with
   */
  <T extends HasMetadata> StatusOutcome<T> write(T asRead, T withNewStatus);

  /**
   * A writer that also sends {@code asRead}'s resourceVersion, so a stale write gets 409.
   *
   * @return a writer on the same client with the optimistic lock; this one is unchanged
   */
  StatusWriter withOptimisticLock();

  /**
   * The standard writer on {@code client}, without optimistic lock.
   *
   * @param client the client the patches are sent with
   * @return a writer that sends nothing when the status did not change
   */
  static StatusWriter create(KubernetesClient client) {
    return new MergePatchStatusWriter(client, false);
  }
}
