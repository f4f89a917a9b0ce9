package dev.converge.operator.internal;

import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Caches backed by maps, for running a controller without a cluster. */
final class InMemoryCaches implements Caches {

  private final Map<Class<?>, Map<ObjectKey, HasMetadata>> objects = new ConcurrentHashMap<>();

  void put(HasMetadata object) {
    objects
        .computeIfAbsent(object.getClass(), t -> new ConcurrentHashMap<>())
        .put(ObjectKey.of(object), object);
  }

  void remove(HasMetadata object) {
    objects.getOrDefault(object.getClass(), Map.of()).remove(ObjectKey.of(object));
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ResourceCache<R> of(Class<R> type) {
    Map<ObjectKey, HasMetadata> byKey =
        objects.computeIfAbsent(type, t -> new ConcurrentHashMap<>());
    return new ResourceCache<>() {
      @Override
      public Class<R> type() {
        return type;
      }

      @Override
      public Optional<R> get(String namespace, String name) {
        return Optional.ofNullable((R) byKey.get(new ObjectKey(namespace, name)));
      }

      @Override
      public List<R> list(String namespace) {
        return list().stream()
            .filter(r -> namespace.equals(r.getMetadata().getNamespace()))
            .toList();
      }

      @Override
      public List<R> list() {
        return byKey.values().stream().map(r -> (R) r).toList();
      }

      @Override
      public List<R> byIndex(String indexName, String key) {
        throw new IllegalArgumentException("no indexes in memory");
      }

      @Override
      public List<R> controlledBy(HasMetadata owner) {
        return List.of();
      }

      @Override
      public boolean hasSynced() {
        return true;
      }
    };
  }

  @Override
  public boolean contains(Class<? extends HasMetadata> type) {
    return true;
  }
}
