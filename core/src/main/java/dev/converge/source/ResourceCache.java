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

  /**
   * The kind this cache holds.
   *
   * @return the kind's class
   */
  Class<R> type();

  /**
   * The object {@code namespace/name}, if the cache holds it.
   *
   * @param namespace the namespace; null or empty for a cluster-scoped kind
   * @param name the object's name
   * @return a copy of the object, or empty when the cache does not hold it
   */
  Optional<R> get(String namespace, String name);

  /**
   * Every cached object in {@code namespace}.
   *
   * @param namespace the namespace
   * @return copies of the objects; empty when there are none
   */
  List<R> list(String namespace);

  /**
   * Every cached object, in every namespace the operator watches.
   *
   * @return copies of the objects; empty when there are none
   */
  List<R> list();

  /**
   * The objects whose index function for {@code indexName} returned {@code key}: the way to find,
   * without a scan, the primaries that reference an object.
   *
   * @param indexName the name the index was registered under
   * @param key one of the keys the index function returns
   * @return copies of the objects; empty when none has the key
   * @throws IllegalArgumentException when no index of that name was registered for this kind,
   *     naming the kind and the indexes it has
   */
  List<R> byIndex(String indexName, String key);

  /**
   * The objects whose controller owner reference points at {@code owner} (matched by UID), read
   * from {@link #CONTROLLER_OWNER_INDEX}: a primary's dependents of this kind.
   *
   * @param owner the controller
   * @return copies of the objects; empty when there are none
   */
  List<R> controlledBy(HasMetadata owner);

  /**
   * True once the informer has delivered its initial list; before that, an empty answer may only
   * mean the objects have not arrived yet.
   *
   * @return whether the cache has synced
   */
  boolean hasSynced();
}
