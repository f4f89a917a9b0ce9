package dev.converge.finalizer;

import dev.converge.reconcile.Context;
import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The finalizer protocol for one primary kind, run at the start of every reconcile:
 *
 * <ol>
 *   <li>not being deleted: make sure the finalizer is on the primary, then reconcile as usual;
 *   <li>being deleted ({@code deletionTimestamp} set) with our finalizer: run the cleanup hook;
 *       only when it reports done, remove the finalizer so the API server can finish the deletion;
 *       a failing hook keeps the finalizer and throws, so the reconcile is retried with backoff;
 *   <li>being deleted without our finalizer: nothing to do.
 * </ol>
 *
 * <p>{@link FinalizingReconciler} runs it for you; use it directly when a reconciler wants to
 * decide itself what to do with each {@link FinalizationOutcome}.
 *
 * @param <P> the primary kind
 */
public final class Finalization<P extends HasMetadata> {

  private static final Logger LOG = LoggerFactory.getLogger(Finalization.class);

  private final Finalizers finalizers;
  private final String finalizer;
  private final FinalizerHook<P> hook;

  /**
   * The protocol for one finalizer and its cleanup.
   *
   * @param finalizers what adds and removes the finalizer on the API server
   * @param finalizer the finalizer's domain-qualified name, such as {@code example.com/cleanup}
   * @param hook the cleanup to run before the finalizer is removed
   */
  public Finalization(Finalizers finalizers, String finalizer, FinalizerHook<P> hook) {
    this.finalizers = Objects.requireNonNull(finalizers, "finalizers");
    this.finalizer = Objects.requireNonNull(finalizer, "finalizer");
    this.hook = Objects.requireNonNull(hook, "hook");
  }

  /**
   * The finalizer this protocol adds and removes.
   *
   * @return the finalizer's name
   */
  public String finalizer() {
    return finalizer;
  }

  /**
   * Runs the protocol for {@code primary} (which is not modified); {@code context} is handed to the
   * hook.
   *
   * @param primary the primary as the reconcile got it
   * @param context the reconcile's context
   * @return what was found and done, which tells the reconciler whether to go on
   * @throws FinalizerCleanupException when the hook throws; the finalizer is kept
   */
  public FinalizationOutcome<P> apply(P primary, Context<P> context) {
    Objects.requireNonNull(primary, "primary");
    Objects.requireNonNull(context, "context");
    String resource = ResourceText.describe(primary);
    boolean deleting =
        primary.getMetadata() != null && primary.getMetadata().getDeletionTimestamp() != null;
    if (!deleting) {
      return new FinalizationOutcome.Proceed<>(finalizers.add(primary, finalizer));
    }
    if (!Finalizers.contains(primary, finalizer)) {
      return new FinalizationOutcome.NotOurs<>();
    }
    CleanupResult result;
    try {
      result = hook.cleanup(primary, context);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FinalizerCleanupException(
          "cleanup of "
              + resource
              + " for finalizer "
              + finalizer
              + " was interrupted; the finalizer stays and cleanup will be retried",
          e);
    } catch (Exception e) {
      throw new FinalizerCleanupException(
          "cleanup of "
              + resource
              + " for finalizer "
              + finalizer
              + " failed: "
              + e.getMessage()
              + "; the finalizer stays and cleanup will be retried",
          e);
    }
    if (result instanceof CleanupResult.RetryAfter retryAfter) {
      LOG.debug(
          "{}: cleanup for {} still in progress, again in {}",
          resource,
          finalizer,
          retryAfter.delay());
      return new FinalizationOutcome.CleanupPending<>(retryAfter.delay());
    }
    Objects.requireNonNull(result, "cleanup hook for " + resource + " returned null");
    finalizers.remove(primary, finalizer);
    LOG.info("{}: cleanup done, finalizer {} removed", resource, finalizer);
    return new FinalizationOutcome.Finalized<>();
  }
}
