package dev.converge.shard.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;

/**
 * The item store of the sharder's informers: of each object it keeps what the sharder decides on
 * and writes with, nothing else, so that its memory grows with the number of objects and not with
 * their size.
 *
 * <p>Kept: apiVersion, kind, name, namespace, uid, resourceVersion (the precondition of the
 * sharder's patches), and of the labels only the ring's own two (the shard and drain labels). Gone:
 * spec, status, data, every other label, annotations, managedFields, owner references, finalizers.
 * Strings that repeat across objects (apiVersion, kind, namespace, label keys and values) are
 * interned. The object is a new one: nothing of the one the informer parsed stays reachable from
 * the store.
 */
final class MetadataOnlyStore extends BasicItemStore<GenericKubernetesResource> {

  private final ShardLabels keys;

  MetadataOnlyStore(ShardLabels keys) {
    super(Cache::metaNamespaceKeyFunc);
    this.keys = keys;
  }

  @Override
  public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
    return super.put(key, slim(obj, keys));
  }

  /**
   * The metadata of {@code obj} the sharder needs, in a new object.
   *
   * @param obj an object as the informer parsed it
   * @param keys the ring's label keys: the only labels kept
   * @return a new object holding only the kept fields
   */
  static GenericKubernetesResource slim(GenericKubernetesResource obj, ShardLabels keys) {
    ObjectMeta from = obj.getMetadata();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(from.getName());
    meta.setNamespace(intern(from.getNamespace()));
    meta.setUid(from.getUid());
    meta.setResourceVersion(from.getResourceVersion());
    meta.setLabels(ringLabels(from.getLabels(), keys));
    meta.setAnnotations(null);
    meta.setFinalizers(null);
    meta.setManagedFields(null);
    meta.setOwnerReferences(null);
    meta.setAdditionalProperties(Map.of());
    GenericKubernetesResource slim = new GenericKubernetesResource();
    slim.setApiVersion(intern(obj.getApiVersion()));
    slim.setKind(intern(obj.getKind()));
    slim.setMetadata(meta);
    slim.setAdditionalProperties(Map.of());
    return slim;
  }

  private static Map<String, String> ringLabels(Map<String, String> labels, ShardLabels keys) {
    if (labels == null || labels.isEmpty()) {
      return Map.of();
    }
    String shard = labels.get(keys.shardKey());
    String drain = labels.get(keys.drainKey());
    if (shard == null && drain == null) {
      return Map.of();
    }
    if (drain == null) {
      return Map.of(keys.shardKey(), shard.intern());
    }
    if (shard == null) {
      return Map.of(keys.drainKey(), drain.intern());
    }
    return Map.of(keys.shardKey(), shard.intern(), keys.drainKey(), drain.intern());
  }

  private static String intern(String s) {
    return s == null ? null : s.intern();
  }
}
