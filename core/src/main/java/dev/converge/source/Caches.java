package dev.converge.source;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** The informer caches of a running operator, one per kind it watches. */
public interface Caches {

  /**
   * The cache of {@code type}.
   *
   * @param <R> the kind
   * @param type the kind's class
   * @return the cache of that kind
   * @throws IllegalArgumentException when no controller of the operator watches {@code type},
   *     naming the kind and how to add it (owns, watches, or the operator's extra caches)
   */
  <R extends HasMetadata> ResourceCache<R> of(Class<R> type);

  /**
   * True when the operator has an informer for {@code type}, so that {@link #of} would not throw.
   *
   * @param type the kind's class
   * @return whether a cache of that kind exists
   */
  boolean contains(Class<? extends HasMetadata> type);
}
