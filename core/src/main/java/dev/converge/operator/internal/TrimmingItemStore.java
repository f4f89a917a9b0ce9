package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;

/**
 * The store of an informer whose kind no strategy writes (a primary, a kind only watched): objects
 * lose {@code metadata.managedFields} and kubectl's last-applied-configuration annotation as they
 * arrive, before any index, handler or reader sees them. Nothing of the runtime reads either on such
 * a kind, and together they are often the larger part of a small object's metadata.
 *
 * <p>Kinds a controller owns keep both: strategies decide ownership and removal from
 * {@code managedFields}, and the update strategy sends live annotations back.
 */
final class TrimmingItemStore<T extends HasMetadata> extends BasicItemStore<T> {

  /** kubectl's record of the last {@code kubectl apply}; read by kubectl only. */
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  TrimmingItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public T put(String key, T obj) {
    trim(obj);
    return super.put(key, obj);
  }

  /** Drops managedFields and the last-applied annotation of {@code obj} in place. */
  static void trim(HasMetadata obj) {
    ObjectMeta meta = obj.getMetadata();
    if (meta == null) {
      return;
    }
    if (meta.getManagedFields() != null && !meta.getManagedFields().isEmpty()) {
      meta.setManagedFields(null);
    }
    Map<String, String> annotations = meta.getAnnotations();
    if (annotations != null && annotations.containsKey(LAST_APPLIED)) {
      annotations.remove(LAST_APPLIED);
    }
  }
}
