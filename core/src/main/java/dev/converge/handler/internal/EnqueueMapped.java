package dev.converge.handler.internal;

import dev.converge.handler.EventHandler;
import dev.converge.handler.MappingFunction;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Enqueues what a {@link MappingFunction} returns. For an update, both the old and the new state
 * are mapped, so a primary that stopped depending on the object is reconciled too.
 *
 * @param <T> the watched kind
 */
public final class EnqueueMapped<T extends HasMetadata> implements EventHandler<T> {

  private final MappingFunction<? super T> mapping;

  /**
   * A handler that enqueues what {@code mapping} returns.
   *
   * @param mapping maps an object of the watched kind to the primaries that depend on it
   */
  public EnqueueMapped(MappingFunction<? super T> mapping) {
    this.mapping = Objects.requireNonNull(mapping, "mapping");
  }

  @Override
  public Collection<ObjectKey> keysFor(ResourceEvent<? extends T> event, Caches caches) {
    Set<ObjectKey> keys = new LinkedHashSet<>();
    if (event instanceof ResourceEvent.Updated<? extends T> update) {
      keys.addAll(mapping.map(update.oldObject(), caches));
    }
    keys.addAll(mapping.map(event.object(), caches));
    return keys;
  }

  @Override
  public String toString() {
    return "EnqueueMapped[" + mapping + "]";
  }
}
