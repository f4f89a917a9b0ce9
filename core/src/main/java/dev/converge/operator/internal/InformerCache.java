package dev.converge.operator.internal;

import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A {@link ResourceCache} over the fabric8 informers of one kind: one for all namespaces, or one
 * per watched namespace. Hands out copies, never cache entries.
 */
final class InformerCache<R extends HasMetadata> implements ResourceCache<R> {

  /** The key of the single informer that watches every namespace. */
  static final String ALL_NAMESPACES = "";

  private final Class<R> type;
  private final Map<String, SharedIndexInformer<R>> informers;
  private final KubernetesSerialization serialization;
  private final boolean namespaced;

  InformerCache(
      Class<R> type,
      Map<String, SharedIndexInformer<R>> informersByNamespace,
      KubernetesSerialization serialization) {
    this.type = type;
    this.informers = Map.copyOf(informersByNamespace);
    this.serialization = serialization;
    this.namespaced = Namespaced.class.isAssignableFrom(type);
  }

  /** The informer holding objects of {@code namespace}, if this cache watches it. */
  private Optional<SharedIndexInformer<R>> informerFor(String namespace) {
    SharedIndexInformer<R> all = informers.get(ALL_NAMESPACES);
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
          .map(i -> i.getIndexer().getByKey(key))
          .filter(java.util.Objects::nonNull)
          .findFirst()
          .map(serialization::clone);
    }
    return informerFor(namespace).map(i -> i.getIndexer().getByKey(key)).map(serialization::clone);
  }

  @Override
  public List<R> list(String namespace) {
    return informerFor(namespace)
        .map(i -> copies(i.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)))
        .orElse(List.of());
  }

  @Override
  public List<R> list() {
    return copies(informers.values().stream().flatMap(i -> i.getIndexer().list().stream()).toList());
  }

  @Override
  public List<R> byIndex(String indexName, String key) {
    SharedIndexInformer<R> any = informers.values().iterator().next();
    if (!any.getIndexer().getIndexers().containsKey(indexName)) {
      throw new IllegalArgumentException(
          "the cache of " + HasMetadata.getKind(type) + " has no index '" + indexName
              + "'; indexes: " + new TreeSet<>(any.getIndexer().getIndexers().keySet())
              + ". Register it with ControllerBuilder.index(" + type.getSimpleName()
              + ".class, \"" + indexName + "\", ...)");
    }
    return copies(
        informers.values().stream().flatMap(i -> i.getIndexer().byIndex(indexName, key).stream()).toList());
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

  private List<R> copies(List<R> items) {
    return items.stream().map(serialization::clone).toList();
  }

  @Override
  public String toString() {
    return "ResourceCache[" + HasMetadata.getKind(type) + "]";
  }
}
