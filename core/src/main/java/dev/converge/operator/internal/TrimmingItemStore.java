package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.Map;

/**
 * The store of an informer: what it keeps of each object as it arrives, before any index, handler
 * or reader sees it.
 *
 * <p>A kind no strategy writes (a primary, a kind only watched) loses {@code
 * metadata.managedFields} and kubectl's last-applied-configuration annotation: nothing of the
 * runtime reads either on such a kind, and together they are often the larger part of a small
 * object's metadata. A kind a controller owns keeps both, since strategies decide ownership and
 * removal from {@code managedFields} and the update strategy sends live annotations back; its
 * {@code managedFields[].fieldsV1} trees, a map per field path as parsed, are stored compactly
 * instead (immutable maps, one shared empty map for the leaves, interned names), which takes a
 * fraction of the memory. {@link ObjectCopy} hands readers mutable copies of them.
 */
final class TrimmingItemStore<T extends HasMetadata> extends BasicItemStore<T> {

  /** kubectl's record of the last {@code kubectl apply}; read by kubectl only. */
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private final boolean trim;

  /**
   * @param trim true to drop managedFields and the last-applied annotation, false to keep them
   *     (compactly)
   */
  TrimmingItemStore(boolean trim) {
    super(Cache::metaNamespaceKeyFunc);
    this.trim = trim;
  }

  @Override
  public T put(String key, T obj) {
    if (trim) {
      trim(obj);
    } else {
      compactManagedFields(obj);
    }
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

  /** Replaces each fieldsV1 tree of {@code obj} by an equal, compact, immutable one. */
  static void compactManagedFields(HasMetadata obj) {
    ObjectMeta meta = obj.getMetadata();
    List<ManagedFieldsEntry> entries = meta == null ? null : meta.getManagedFields();
    if (entries == null) {
      return;
    }
    for (ManagedFieldsEntry entry : entries) {
      FieldsV1 fields = entry.getFieldsV1();
      if (fields != null && fields.getAdditionalProperties() != null) {
        fields.setAdditionalProperties(compact(fields.getAdditionalProperties()));
      }
      if (entry.getManager() != null) {
        entry.setManager(entry.getManager().intern());
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> compact(Map<String, Object> map) {
    if (map.isEmpty()) {
      return Map.of();
    }
    @SuppressWarnings("rawtypes")
    Map.Entry[] compacted = new Map.Entry[map.size()];
    int i = 0;
    for (Map.Entry<String, Object> e : map.entrySet()) {
      Object value = e.getValue();
      if (value instanceof Map<?, ?> child) {
        value = compact((Map<String, Object>) child);
      } else if (value == null) {
        value = Map.of(); // not in a fieldsV1 tree the server sends; an immutable map holds no null
      }
      compacted[i++] = Map.entry(e.getKey().intern(), value);
    }
    return Map.ofEntries(compacted);
  }
}
