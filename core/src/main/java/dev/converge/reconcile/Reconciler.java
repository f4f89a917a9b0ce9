package dev.converge.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Makes the world match one primary object. Called by the runtime with the primary as the informer
 * cache holds it (a private copy: modify it freely) whenever the primary or something related to it
 * changed, and after requested delays.
 *
 * <p>Write it idempotently: it may run many times for the same state, and it sees only the latest
 * state, never the event that caused the call. A typical body follows five steps: read the primary
 * (done for you), compare desired with actual using {@link Context}'s cached reads, create, update
 * or delete through the kind's strategy ({@link Context#apply}), write the status only when it
 * changed, and return a {@link Result}. Throw for transient failures; the runtime retries with
 * backoff.
 *
 * @param <P> the primary kind
 */
@FunctionalInterface
public interface Reconciler<P extends HasMetadata> {

  /**
   * Brings the world in line with {@code primary} once.
   *
   * @param primary the primary as the cache holds it, a private copy
   * @param context the cached reads, writes, status and events of this reconcile
   * @return when to come back: {@link Result#done()} when only a change should bring it back
   * @throws Exception for a transient failure, retried with backoff; a write the API server refused
   *     as such ({@link Refusal}) is not retried until something changes
   */
  Result reconcile(P primary, Context<P> context) throws Exception;
}
