package dev.converge.operator.internal;

import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A {@link ResourceCache} over the fabric8 informers of one kind: one for all namespaces, or one
 * per watched namespace. Hands out copies, never cache entries.
 */
final class InformerCache<R extends HasMetadata> implements ResourceCache<R> {

  /** The key of the single informer that watches every namespace. */
  static final String ALL_NAMESPACES = "";

  private final Class<R> type;
  private final Map<String, SharedIndexInformer<? extends HasMetadata>> informers;
  private final Function<HasMetadata, Optional<R>> copy;
  private final boolean namespaced;

  /**
   * @param copy a private copy of a stored object as {@code type}; empty for an object that cannot
   *     be read as {@code type} (reported where it is made)
   */
  InformerCache(
      Class<R> type,
      Map<String, SharedIndexInformer<? extends HasMetadata>> informersByNamespace,
      Function<HasMetadata, Optional<R>> copy) {
    this.type = type;
    this.informers = Map.copyOf(informersByNamespace);
    this.copy = copy;
    this.namespaced = Namespaced.class.isAssignableFrom(type);
  }

  /** The informer holding objects of {@code namespace}, if this cache watches it. */
  private Optional<SharedIndexInformer<? extends HasMetadata>> informerFor(String namespace) {
    SharedIndexInformer<? extends HasMetadata> all = informers.get(ALL_NAMESPACES);
    return all != null ? Optional.of(all) : Optional.ofNullable(informers.get(namespace));
  }

  @Override
  public Class<R> type() {
    return type;
  }

  @Override
  public Optional<R> get(String namespace, String name) {
    // A cluster-scoped kind is keyed by name alone, whatever namespace the caller is in.
    boolean scoped = namespaced && namespace != null && !namespace.isEmpty();
    String key = Cache.namespaceKeyFunc(scoped ? namespace : null, name);
    if (!scoped) {
      return informers.values().stream()
          .<HasMetadata>map(i -> i.getIndexer().getByKey(key))
          .filter(java.util.Objects::nonNull)
          .findFirst()
          .flatMap(copy);
    }
    return informerFor(namespace).<HasMetadata>map(i -> i.getIndexer().getByKey(key)).flatMap(copy);
  }

  @Override
  public List<R> list(String namespace) {
    return informerFor(namespace)
        .map(i -> copies(i.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)))
        .orElse(List.of());
  }

  @Override
  public List<R> list() {
    return copies(
        informers.values().stream().flatMap(i -> i.getIndexer().list().stream()).toList());
  }

  @Override
  public List<R> byIndex(String indexName, String key) {
    SharedIndexInformer<? extends HasMetadata> any = informers.values().iterator().next();
    if (!any.getIndexer().getIndexers().containsKey(indexName)) {
      throw new IllegalArgumentException(
          "the cache of "
              + HasMetadata.getKind(type)
              + " has no index '"
              + indexName
              + "'; indexes: "
              + new TreeSet<>(any.getIndexer().getIndexers().keySet())
              + ". Register it with ControllerBuilder.index("
              + type.getSimpleName()
              + ".class, \""
              + indexName
              + "\", ...)");
    }
    return copies(
        informers.values().stream()
            .flatMap(i -> i.getIndexer().byIndex(indexName, key).stream())
            .toList());
  }

  @Override
  public List<R> controlledBy(HasMetadata owner) {
    String uid = owner.getMetadata().getUid();
    if (uid == null) {
      return List.of();
    }
    return byIndex(CONTROLLER_OWNER_INDEX, uid);
  }

  @Override
  public boolean hasSynced() {
    return informers.values().stream().allMatch(SharedIndexInformer::hasSynced);
  }

  private List<R> copies(List<? extends HasMetadata> items) {
    return items.stream().map(copy).flatMap(Optional::stream).toList();
  }

  @Override
  public String toString() {
    return "ResourceCache[" + HasMetadata.getKind(type) + "]";
  }
}
