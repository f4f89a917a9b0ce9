package dev.converge.strategy.tree;

import dev.converge.schema.ResourceTree;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of a desired object a strategy writes and compares: no status, none of the metadata the
 * server owns, and Secret {@code stringData} folded into {@code data} (the server does that on
 * write and never returns {@code stringData}, so comparing it would always differ).
 */
public final class DesiredState {

  /** Metadata fields a controller may set; everything else in metadata belongs to the server. */
  public static final Set<String> WRITABLE_METADATA =
      Set.of(
          "name",
          "namespace",
          "labels",
          "annotations",
          "ownerReferences",
          "finalizers",
          "generateName");

  private DesiredState() {}

  /**
   * The normalised JSON tree of {@code desired}.
   *
   * @param desired the object as the operator built it; not changed
   * @return a new tree, normalised as {@link #normalize} does
   */
  public static Map<String, Object> of(HasMetadata desired) {
    return normalize(ResourceTree.of(desired));
  }

  /**
   * Normalises a desired tree in place and returns it.
   *
   * @param tree an object's tree, as {@link ResourceTree#of} makes it; changed in place
   * @return {@code tree} itself
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> normalize(Map<String, Object> tree) {
    tree.remove("status");
    Object metadata = tree.get("metadata");
    if (metadata instanceof Map<?, ?> meta) {
      ((Map<String, Object>) meta).keySet().retainAll(WRITABLE_METADATA);
      for (String key : List.of("labels", "annotations", "ownerReferences", "finalizers")) {
        Object value = meta.get(key);
        if ((value instanceof Map<?, ?> m && m.isEmpty())
            || (value instanceof List<?> l && l.isEmpty())) {
          ((Map<String, Object>) meta).remove(key);
        }
      }
    }
    if ("Service".equals(tree.get("kind")) && "v1".equals(tree.get("apiVersion"))) {
      ResourceTree.mapAt(tree, "spec").ifPresent(DesiredState::dropUnassignedServiceFields);
    }
    if ("PersistentVolumeClaim".equals(tree.get("kind")) && "v1".equals(tree.get("apiVersion"))) {
      ResourceTree.mapAt(tree, "spec").ifPresent(spec -> dropIfEmpty(spec, "volumeName"));
    }
    if ("Secret".equals(tree.get("kind")) && "v1".equals(tree.get("apiVersion"))) {
      Object stringData = tree.remove("stringData");
      if (stringData instanceof Map<?, ?> strings && !strings.isEmpty()) {
        Map<String, Object> data = ResourceTree.mapAtOrCreate(tree, "data");
        strings.forEach(
            (k, v) ->
                data.put(
                    (String) k,
                    Base64.getEncoder()
                        .encodeToString(String.valueOf(v).getBytes(StandardCharsets.UTF_8))));
      }
    }
    return tree;
  }

  /**
   * A Service's allocated values written empty ({@code clusterIP: ""}, {@code nodePort: 0}) ask the
   * server to allocate them, and the server then keeps what it allocated; comparing the empty value
   * with the allocated one would write forever. Empty means "unset" here.
   */
  @SuppressWarnings("unchecked")
  private static void dropUnassignedServiceFields(Map<String, Object> spec) {
    dropIfEmpty(spec, "clusterIP");
    dropIfEmpty(spec, "clusterIPs");
    dropIfEmpty(spec, "ipFamilies");
    dropIfEmpty(spec, "ipFamilyPolicy");
    dropIfEmpty(spec, "healthCheckNodePort");
    if (spec.get("clusterIPs") instanceof List<?> ips
        && ips.stream().allMatch(ip -> ip == null || "".equals(ip))) {
      spec.remove("clusterIPs");
    }
    if (spec.get("ports") instanceof List<?> ports) {
      for (Object port : ports) {
        if (port instanceof Map<?, ?> p) {
          dropIfEmpty((Map<String, Object>) p, "nodePort");
        }
      }
    }
  }

  private static void dropIfEmpty(Map<String, Object> map, String key) {
    Object value = map.get(key);
    if ("".equals(value)
        || (value instanceof Number n && n.longValue() == 0)
        || (value instanceof List<?> l && l.isEmpty())) {
      map.remove(key);
    }
  }
}
