package dev.converge.schema;

import dev.converge.client.Clients;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Converts resources to mutable JSON trees and back. */
public final class ResourceTree {

  private static final KubernetesSerialization JSON = Clients.serialization();

  private ResourceTree() {}

  /** A deep, mutable JSON tree of {@code resource}. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> of(HasMetadata resource) {
    return (Map<String, Object>) copy(JSON.convertValue(resource, Map.class));
  }

  /**
   * A mutable JSON tree of any model value (a list of managedFields entries, a pod spec): maps,
   * lists and scalars; {@code null} for {@code null}.
   */
  public static Object treeOf(Object value) {
    return value == null ? null : copy(JSON.convertValue(value, Object.class));
  }

  /** The tree read back as {@code type}. */
  public static <R> R toResource(Map<String, Object> tree, Class<R> type) {
    return JSON.convertValue(tree, type);
  }

  /** Parses a JSON object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parse(String json) {
    return (Map<String, Object>) copy(JSON.unmarshal(json, Map.class));
  }

  /** JSON with map keys sorted, so equal trees give equal strings. */
  public static String canonicalJson(Object tree) {
    return JSON.asJson(sorted(tree));
  }

  /** A deep mutable copy of a tree. */
  @SuppressWarnings("unchecked")
  public static Object copy(Object node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put((String) k, copy(v)));
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(copy(v)));
      return out;
    }
    return node;
  }

  /** A deep mutable copy of an object tree. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> copyMap(Map<String, Object> tree) {
    return (Map<String, Object>) copy(tree);
  }

  /** The map at {@code path}; empty when any step is absent or not a map. */
  @SuppressWarnings("unchecked")
  public static Optional<Map<String, Object>> mapAt(Map<String, Object> tree, String... path) {
    Object node = tree;
    for (String step : path) {
      if (!(node instanceof Map<?, ?> map)) {
        return Optional.empty();
      }
      node = map.get(step);
    }
    return node instanceof Map<?, ?> ? Optional.of((Map<String, Object>) node) : Optional.empty();
  }

  /** The map at {@code path}, created (and intermediate maps too) when absent. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> mapAtOrCreate(Map<String, Object> tree, String... path) {
    Map<String, Object> node = tree;
    for (String step : path) {
      Object next = node.get(step);
      if (!(next instanceof Map<?, ?>)) {
        next = new LinkedHashMap<String, Object>();
        node.put(step, next);
      }
      node = (Map<String, Object>) next;
    }
    return node;
  }

  private static Object sorted(Object node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new TreeMap<>();
      map.forEach((k, v) -> out.put((String) k, sorted(v)));
      return out;
    }
    if (node instanceof List<?> list) {
      return list.stream().map(ResourceTree::sorted).toList();
    }
    return node;
  }
}
