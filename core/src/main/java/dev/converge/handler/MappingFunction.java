package dev.converge.handler;

import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;

/**
 * Maps a changed object to the primaries that depend on it, e.g. a ConfigMap to the AppDeployments
 * that reference it. Look the primaries up through an index on {@code caches} ({@code
 * caches.of(AppDeployment.class).byIndex("by-configmap", ns + "/" + name)}) rather than scanning
 * every object. {@code object} belongs to the informer's cache: read it, never change it.
 *
 * @param <T> the watched kind
 */
@FunctionalInterface
public interface MappingFunction<T extends HasMetadata> {

  /**
   * The primaries that depend on {@code object}.
   *
   * @param object the changed object (for an update, called once with the old state and once with
   *     the new one)
   * @param caches the operator's informer caches, for index lookups
   * @return the keys of the primaries to reconcile; empty for none
   */
  Collection<ObjectKey> map(T object, Caches caches);
}
