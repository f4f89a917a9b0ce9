package dev.converge.schema;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Converts resources to mutable JSON trees and back. Comparison, merging and field sets in this
 * package work on trees (maps with string keys, lists, strings, numbers, booleans) rather than on
 * the model classes, so that one piece of code handles every kind, custom resources included, the
 * way the API server sees its JSON.
 */
public final class ResourceTree {

  private static final KubernetesSerialization JSON = Json.serialization();

  private ResourceTree() {}

  /**
   * A deep, mutable JSON tree of {@code resource}.
   *
   * @param resource any model object, typed or generic
   * @return a new tree, the object's JSON as maps, lists and scalars, which the caller may change
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> of(HasMetadata resource) {
    // Jackson builds the tree of new LinkedHashMaps and ArrayLists, which the caller may change as
    // they are: copying it again cost a tenth of the conversion.
    return (Map<String, Object>) JSON.convertValue(resource, Map.class);
  }

  /**
   * A mutable JSON tree of any model value (a list of managedFields entries, a pod spec): maps,
   * lists and scalars; {@code null} for {@code null}.
   *
   * @param value a model value, or null
   * @return a new tree: a map, a list or a scalar; null for null
   */
  public static Object treeOf(Object value) {
    if (value == null) {
      return null;
    }
    Object tree = JSON.convertValue(value, Object.class);
    // A value that is itself a tree may come back as it is; only then is the copy needed.
    return tree == value ? copy(tree) : tree;
  }

  /**
   * The tree read back as {@code type}.
   *
   * @param <R> the model class
   * @param tree an object's JSON tree
   * @param type the model class to read it into, such as {@code Deployment.class} or {@code
   *     GenericKubernetesResource.class}
   * @return a new model object; the tree is not kept
   */
  public static <R> R toResource(Map<String, Object> tree, Class<R> type) {
    return JSON.convertValue(tree, type);
  }

  /**
   * Parses a JSON object.
   *
   * @param json the text of one JSON object
   * @return a new, mutable tree
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parse(String json) {
    return (Map<String, Object>) copy(JSON.unmarshal(json, Map.class));
  }

  /**
   * JSON with map keys sorted, so equal trees give equal strings.
   *
   * @param tree a tree (or any value the client's JSON can write)
   * @return its JSON text with the keys of every map in sorted order; lists keep their order
   */
  public static String canonicalJson(Object tree) {
    return JSON.asJson(sorted(tree));
  }

  /**
   * A deep mutable copy of a tree.
   *
   * @param node a map, a list or a scalar
   * @return new maps and lists holding the same scalars; the scalar itself for a scalar
   */
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

  /**
   * A deep mutable copy of an object tree.
   *
   * @param tree an object's tree
   * @return a new tree that shares no map or list with {@code tree}
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> copyMap(Map<String, Object> tree) {
    return (Map<String, Object>) copy(tree);
  }

  /**
   * The map at {@code path}; empty when any step is absent or not a map.
   *
   * @param tree an object's tree
   * @param path the keys to follow from the root, such as {@code "spec", "template"}
   * @return the map itself, not a copy, so changes to it change {@code tree}
   */
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

  /**
   * The map at {@code path}, created (and intermediate maps too) when absent. A step that holds
   * something other than a map is replaced by an empty map.
   *
   * @param tree an object's tree, changed in place when a map is missing
   * @param path the keys to follow from the root
   * @return the map itself, to be filled in place
   */
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
