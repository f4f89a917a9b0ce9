package dev.converge.source;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** The informer caches of a running operator, one per kind it watches. */
public interface Caches {

  /**
   * The cache of {@code type}.
   *
   * @throws IllegalArgumentException when no controller of the operator watches {@code type},
   *     naming the kind and how to add it (owns, watches, or the operator's extra caches)
   */
  <R extends HasMetadata> ResourceCache<R> of(Class<R> type);

  /** True when the operator has an informer for {@code type}. */
  boolean contains(Class<? extends HasMetadata> type);
}
