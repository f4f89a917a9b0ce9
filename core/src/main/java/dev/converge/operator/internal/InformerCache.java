package dev.converge.operator.internal;

import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** A {@link ResourceCache} over one fabric8 informer; hands out copies, never cache entries. */
final class InformerCache<R extends HasMetadata> implements ResourceCache<R> {

  private final Class<R> type;
  private final SharedIndexInformer<R> informer;
  private final KubernetesSerialization serialization;
  private final boolean namespaced;

  InformerCache(Class<R> type, SharedIndexInformer<R> informer, KubernetesSerialization serialization) {
    this.type = type;
    this.informer = informer;
    this.serialization = serialization;
    this.namespaced = Namespaced.class.isAssignableFrom(type);
  }

  @Override
  public Class<R> type() {
    return type;
  }

  @Override
  public Optional<R> get(String namespace, String name) {
    // A cluster-scoped kind is keyed by name alone, whatever namespace the caller is in.
    boolean scoped = namespaced && namespace != null && !namespace.isEmpty();
    R found = informer.getIndexer().getByKey(Cache.namespaceKeyFunc(scoped ? namespace : null, name));
    return Optional.ofNullable(found).map(serialization::clone);
  }

  @Override
  public List<R> list(String namespace) {
    return copies(informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
  }

  @Override
  public List<R> list() {
    return copies(informer.getIndexer().list());
  }

  @Override
  public List<R> byIndex(String indexName, String key) {
    if (!informer.getIndexer().getIndexers().containsKey(indexName)) {
      throw new IllegalArgumentException(
          "the cache of " + HasMetadata.getKind(type) + " has no index '" + indexName
              + "'; indexes: " + new TreeSet<>(informer.getIndexer().getIndexers().keySet())
              + ". Register it with ControllerBuilder.index(" + type.getSimpleName()
              + ".class, \"" + indexName + "\", ...)");
    }
    return copies(informer.getIndexer().byIndex(indexName, key));
  }

  @Override
  public List<R> controlledBy(HasMetadata owner) {
    String uid = owner.getMetadata().getUid();
    if (uid == null) {
      return List.of();
    }
    return copies(informer.getIndexer().byIndex(CONTROLLER_OWNER_INDEX, uid));
  }

  @Override
  public boolean hasSynced() {
    return informer.hasSynced();
  }

  private List<R> copies(List<R> items) {
    return items.stream().map(serialization::clone).toList();
  }

  @Override
  public String toString() {
    return "ResourceCache[" + HasMetadata.getKind(type) + "]";
  }
}
