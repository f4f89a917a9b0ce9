package dev.converge.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * Read access to the informer cache of one kind. Every read is served from memory; none reaches the
 * API server. Returned objects are copies, so callers may modify them freely.
 *
 * @param <R> the kind
 */
public interface ResourceCache<R extends HasMetadata> {

  /** The index every cache has: objects by the UID of their controller owner. */
  String CONTROLLER_OWNER_INDEX = "converge.dev/controller-owner-uid";

  /** The kind this cache holds. */
  Class<R> type();

  /**
   * The object {@code namespace/name}, if the cache holds it.
   *
   * @param namespace the namespace; null or empty for a cluster-scoped kind
   */
  Optional<R> get(String namespace, String name);

  /** Every cached object in {@code namespace}. */
  List<R> list(String namespace);

  /** Every cached object. */
  List<R> list();

  /**
   * The objects whose index function for {@code indexName} returned {@code key}.
   *
   * @throws IllegalArgumentException when no index of that name was registered for this kind,
   *     naming the kind and the indexes it has
   */
  List<R> byIndex(String indexName, String key);

  /** The objects whose controller owner reference points at {@code owner} (matched by UID). */
  List<R> controlledBy(HasMetadata owner);

  /** True once the informer has delivered its initial list. */
  boolean hasSynced();
}
