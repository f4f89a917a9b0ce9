package dev.converge.unittest.internal;

import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Objects by kind and key, standing in for the API server and the informer caches of a test. Reads
 * return copies, as the real caches do.
 */
public final class MemoryStore implements Caches {

  private final KubernetesSerialization serialization;
  private final Map<Class<?>, Map<ObjectKey, HasMetadata>> objects = new LinkedHashMap<>();
  private long nextVersion = 1;

  public MemoryStore(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /** The stored object itself (not a copy), for the test to change as another actor would. */
  public <R extends HasMetadata> Optional<R> stored(Class<R> type, String namespace, String name) {
    return Optional.ofNullable(type.cast(byKey(type).get(new ObjectKey(namespace, name))));
  }

  /** Stores {@code object} as given, with a uid and a resourceVersion when it has none. */
  public void put(HasMetadata object) {
    var meta = object.getMetadata();
    if (meta.getUid() == null) {
      String kind = Objects.requireNonNullElse(object.getKind(), object.getClass().getSimpleName());
      meta.setUid("uid-" + kind.toLowerCase(Locale.ROOT) + "-" + meta.getName());
    }
    meta.setResourceVersion(Long.toString(nextVersion++));
    byKey(object.getClass()).put(ObjectKey.of(object), object);
  }

  public void remove(Class<? extends HasMetadata> type, ObjectKey key) {
    byKey(type).remove(key);
  }

  public <T> T copy(T object) {
    return serialization.clone(object);
  }

  @Override
  public <R extends HasMetadata> ResourceCache<R> of(Class<R> type) {
    return new ResourceCache<>() {
      @Override
      public Class<R> type() {
        return type;
      }

      @Override
      public Optional<R> get(String namespace, String name) {
        return stored(type, namespace, name).map(MemoryStore.this::copy);
      }

      @Override
      public List<R> list(String namespace) {
        String wanted = namespace == null ? "" : namespace;
        return list().stream()
            .filter(
                r -> wanted.equals(Objects.requireNonNullElse(r.getMetadata().getNamespace(), "")))
            .toList();
      }

      @Override
      public List<R> list() {
        List<R> all = new ArrayList<>();
        byKey(type).values().forEach(o -> all.add(copy(type.cast(o))));
        return all;
      }

      @Override
      public List<R> byIndex(String indexName, String key) {
        throw new IllegalArgumentException(
            "the test context keeps no index (asked for \""
                + indexName
                + "\" on "
                + type.getSimpleName()
                + "); test the index function and the"
                + " mapping function directly");
      }

      @Override
      public List<R> controlledBy(HasMetadata owner) {
        return list().stream().filter(r -> OwnerReferences.isControlledBy(r, owner)).toList();
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

  private Map<ObjectKey, HasMetadata> byKey(Class<?> type) {
    return objects.computeIfAbsent(type, t -> new LinkedHashMap<>());
  }
}
