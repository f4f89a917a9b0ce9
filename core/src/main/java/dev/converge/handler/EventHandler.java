package dev.converge.handler;

import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;

/**
 * Turns an event of a watched kind into the keys of the primaries to reconcile. The three usual
 * shapes come with {@code ControllerBuilder}: the primary's own events, owned objects waking their
 * controller owner ({@code owns}), and a {@link MappingFunction} for objects that are referenced
 * rather than owned ({@code watches}, {@code watchesReferenced}); a handler of your own is given to
 * {@code watchesWith}.
 *
 * <p>Handlers run on the informer's thread: they must be quick and read only from {@code caches}.
 * An exception thrown here is logged with the object's name and the event is dropped.
 *
 * @param <T> the watched kind
 */
@FunctionalInterface
public interface EventHandler<T extends HasMetadata> {

  /**
   * The primaries to enqueue for {@code event}.
   *
   * @param event the change, which passed the watch's predicate; do not change its objects
   * @param caches the operator's informer caches, for looking up related objects
   * @return the keys of the primaries to reconcile; empty for none, never null (a null is reported
   *     like an exception and the event is dropped)
   */
  Collection<ObjectKey> keysFor(ResourceEvent<? extends T> event, Caches caches);
}
