package dev.converge.handler.internal;

import dev.converge.handler.EventHandler;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;

/**
 * Enqueues the object the event is about: the handler for the primary kind.
 *
 * @param <T> the primary kind
 */
public final class EnqueueSelf<T extends HasMetadata> implements EventHandler<T> {

  /** The handler; the builder makes one for each controller. */
  public EnqueueSelf() {}

  @Override
  public Collection<ObjectKey> keysFor(ResourceEvent<? extends T> event, Caches caches) {
    return List.of(ObjectKey.of(event.object()));
  }

  @Override
  public String toString() {
    return "EnqueueSelf";
  }
}
