package dev.converge.reconcile;

import dev.converge.event.EventRecorder;
import dev.converge.source.Caches;
import dev.converge.source.ResourceCache;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Everything a {@link Reconciler} needs besides the primary: cached reads of related objects, the
 * client for writes, the strategy that writes each kind, the status writer and the event recorder.
 * Valid for one reconcile only.
 *
 * <p>Reads go to informer caches (no request to the API server); a kind is cached when the
 * controller owns or watches it, or when the operator was asked to cache it.
 *
 * @param <P> the primary kind
 */
public interface Context<P extends HasMetadata> {

  /**
   * The key being reconciled.
   *
   * @return the primary's namespace and name
   */
  ObjectKey key();

  /**
   * The name of the controller running this reconcile, as its logs and metrics name it.
   *
   * @return the controller's name
   */
  String controllerName();

  /**
   * How many times in a row this key has failed (thrown) or asked for {@link Result#requeue()}
   * before this attempt; 0 normally. Handy for logging or for giving up on something external after
   * a number of attempts.
   *
   * @return the number of attempts in a row that failed or asked for a requeue
   */
  int retries();

  /**
   * The shared client, for writes and for anything the caches do not hold.
   *
   * @return the operator's client; do not close it
   */
  KubernetesClient client();

  /**
   * All informer caches of the operator.
   *
   * @return the caches, shared by every controller
   */
  Caches caches();

  /**
   * The cache of {@code type}; shorthand for {@code caches().of(type)}.
   *
   * @param <R> the cached kind
   * @param type the kind's class
   * @return the kind's cache
   */
  default <R extends HasMetadata> ResourceCache<R> cache(Class<R> type) {
    return caches().of(type);
  }

  /**
   * The cached object {@code name} of {@code type} in the primary's namespace.
   *
   * @param <R> the cached kind
   * @param type the kind's class
   * @param name the object's name
   * @return the object as the cache holds it, or empty when there is none
   */
  default <R extends HasMetadata> Optional<R> get(Class<R> type, String name) {
    return cache(type).get(key().namespace(), name);
  }

  /**
   * The cached objects of {@code type} whose controller owner is the primary: what this controller
   * created, including objects left over from an earlier desired state.
   *
   * @param <R> the cached kind
   * @param type the kind's class
   * @return the owned objects; empty when there are none
   */
  <R extends HasMetadata> List<R> owned(Class<R> type);

  /**
   * The strategy configured for the kind of {@code desired}.
   *
   * @param desired the object to write, whose kind, name and labels select the strategy
   * @return the strategy {@link #apply(HasMetadata)} would use
   */
  ResourceStrategy strategyFor(HasMetadata desired);

  /**
   * The strategy context backed by the caches, with this controller's field manager, for a
   * reconciler that calls a strategy itself.
   *
   * @return the context strategies read and write through
   */
  StrategyContext strategyContext();

  /**
   * Makes the live object match {@code desired} with the strategy configured for it, and makes the
   * primary its controller owner (see {@link #apply(HasMetadata, ApplyOptions)}); sends no request
   * when it already matches.
   *
   * @param <R> the object's kind
   * @param desired the object as the primary wants it
   * @return what the strategy did, and the live object
   */
  default <R extends HasMetadata> ApplyResult<R> apply(R desired) {
    return apply(desired, ApplyOptions.defaults());
  }

  /**
   * Makes the live object match {@code desired}; sends no request when it already matches.
   *
   * <p>Unless {@code options} say otherwise, {@code desired} first gets a controller owner
   * reference to the primary (set on the object passed in), so the garbage collector deletes it
   * with the primary and its events reconcile the primary. An object that already names a
   * controller keeps it. A namespaced primary can own only objects of its own namespace; for
   * anything else the call fails naming both objects, and {@link
   * ApplyOptions#withoutOwnerReference()} writes it without a reference.
   *
   * <p>The strategy is the one named in {@code options}, else the one the operator's strategy
   * selection chooses for this object (by kind, or by a rule on its name or labels).
   *
   * @param <R> the object's kind
   * @param desired the object as the primary wants it
   * @param options the owner reference and strategy to write it with
   * @return what the strategy did, and the live object
   */
  <R extends HasMetadata> ApplyResult<R> apply(R desired, ApplyOptions options);

  /**
   * Marks {@code child} as wanted by this reconcile without writing it, so that {@linkplain
   * dev.converge.builder.ControllerBuilder#pruneOwned() pruning} leaves it alone: for an owned
   * object the reconcile deliberately does not apply this time (a Job that finished and must not be
   * rewritten, a child the reconcile leaves as it is while something else is under way). Only its
   * kind, namespace and name are read; they identify it as {@link #apply} does. An object applied
   * in the same reconcile needs no call.
   *
   * <p>A controller that does not prune ignores it; so does this default, for contexts that never
   * prune (test doubles).
   *
   * @param child the owned object to keep, as read from the cache or as desired
   */
  default void keep(HasMetadata child) {}

  /**
   * Sets the primary's status to what {@code compute} makes of it, the way a reconciler should:
   * {@code compute} gets a copy of {@code primary} and sets its status (typically {@code p ->
   * p.setStatus(wanted(p))}); the difference is written through the status subresource, and nothing
   * is sent when there is none. The write carries the read's resourceVersion; when the server has a
   * newer object (409), the primary is read again and {@code compute} runs again on the fresh copy,
   * a few times at most. A primary deleted meanwhile, or one whose generation moved on (its own
   * reconcile follows), is not an error.
   *
   * @param primary the primary as this reconcile read it; not modified
   * @param compute sets the status on the copy it is given; may run more than once
   * @return what happened: {@code Unchanged}, {@code Written}, {@code Gone} or {@code Superseded}
   */
  StatusOutcome<P> updateStatus(P primary, Consumer<P> compute);

  /**
   * Writes status through the status subresource (no request when nothing changed), for any object,
   * without {@link #updateStatus}'s retry on conflict.
   *
   * @return the operator's status writer
   */
  StatusWriter status();

  /**
   * Records Events on the primary or any other object.
   *
   * @return the operator's event recorder
   */
  EventRecorder events();
}
