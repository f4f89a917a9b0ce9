package dev.converge.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lays a desired object over a live one the way the server merges an apply, for strategies that send
 * the whole result (PUT) or its difference (JSON merge patch):
 *
 * <ul>
 *   <li>maps merge key by key and keep keys desired does not mention — server defaults, other
 *       writers' keys — unless the map is atomic, which desired replaces whole;
 *   <li>map lists merge element by element, matched by their key fields; set lists keep other
 *       writers' elements; atomic lists are replaced;
 *   <li>what this writer set before ({@code previouslyOwned}) and desired no longer sets is removed,
 *       unless another writer owns it too ({@code ownedByOthers}): a dropped label, a dropped
 *       container, a dropped probe with the values the server defaulted inside it;
 *   <li>one-of members desired does not select are cleared ({@link Unions}).
 * </ul>
 */
public final class Merge {

  private static final Object REMOVE = new Object();
  /** Marks a removed path as a cleared one-of member while merging. */
  private static final String CLEARED = "!";

  private Merge() {}

  /**
   * The merged object and the paths it removed from live.
   *
   * @param object a new tree; neither input is changed
   * @param removed the paths removed, in a readable form ({@code .spec.strategy.rollingUpdate}),
   *     including {@code cleared}
   * @param cleared the one-of members cleared because desired selects another one
   */
  public record Result(Map<String, Object> object, List<String> removed, List<String> cleared) {}

  /** Merges {@code desired} into {@code live}. */
  @SuppressWarnings("unchecked")
  public static Result apply(SchemaNode schema, Map<String, Object> live, Map<String, Object> desired,
      FieldSet previouslyOwned, FieldSet ownedByOthers) {
    List<String> removed = new ArrayList<>();
    Object merged = merge(schema, live, desired, previouslyOwned, ownedByOthers, "", removed);
    List<String> cleared = removed.stream().filter(p -> p.startsWith(CLEARED)).map(p -> p.substring(1)).toList();
    List<String> all = removed.stream().map(p -> p.startsWith(CLEARED) ? p.substring(1) : p).toList();
    return new Result((Map<String, Object>) merged, all, cleared);
  }

  private static Object merge(SchemaNode schema, Object live, Object want, FieldSet prev, FieldSet others,
      String path, List<String> removed) {
    if (want instanceof Map<?, ?> wantMap && !(schema instanceof ScalarSchema)) {
      MapSchema map = schema instanceof MapSchema m ? m : null;
      if (map != null && map.atomic()) {
        return copy(want);
      }
      return mergeMap(map, live instanceof Map<?, ?> l ? l : null, wantMap, prev, others, path, removed);
    }
    if (want instanceof List<?> wantList && !(schema instanceof ScalarSchema)) {
      ListSchema list = schema instanceof ListSchema l ? l : null;
      if (list == null || list.type() == ListType.ATOMIC || !(live instanceof List<?> liveList)) {
        return copy(want);
      }
      return list.type() == ListType.SET
          ? mergeSet(list, liveList, wantList, prev, others, path, removed)
          : mergeKeyed(list, liveList, wantList, prev, others, path, removed);
    }
    return copy(want);
  }

  private static Map<String, Object> mergeMap(MapSchema schema, Map<?, ?> live, Map<?, ?> want, FieldSet prev,
      FieldSet others, String path, List<String> removed) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (live != null) {
      live.forEach((k, v) -> out.put((String) k, v));
    }
    for (Map.Entry<?, ?> e : want.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      String key = (String) e.getKey();
      SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
      String element = FieldSet.field(key);
      out.put(key, merge(child, out.get(key), e.getValue(), sub(prev, element), sub(others, element),
          path + "." + key, removed));
    }
    if (live != null) {
      for (Map.Entry<?, ?> e : live.entrySet()) {
        String key = (String) e.getKey();
        if (want.get(key) != null) {
          continue;
        }
        SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
        Object kept = prune(child, e.getValue(), prev, FieldSet.field(key), others, path + "." + key, removed);
        if (kept == REMOVE) {
          out.remove(key);
        } else {
          out.put(key, kept);
        }
      }
    }
    if (schema != null) {
      Optional<Union> union = Unions.of(schema.typeName());
      if (union.isPresent()) {
        for (String member : union.get().toClear(want, out.keySet())) {
          out.remove(member);
          removed.add(CLEARED + path + "." + member);
        }
      }
    }
    return out;
  }

  private static List<Object> mergeSet(ListSchema schema, List<?> live, List<?> want, FieldSet prev,
      FieldSet others, String path, List<String> removed) {
    Set<String> wanted = new LinkedHashSet<>();
    List<Object> out = new ArrayList<>();
    for (Object element : want) {
      if (element != null && wanted.add(CanonicalJson.of(element))) {
        out.add(copy(element));
      }
    }
    for (Object element : live) {
      if (element == null || wanted.contains(CanonicalJson.of(element))) {
        continue;
      }
      Object kept = prune(schema.items(), element, prev, FieldSet.value(element), others,
          path + "[" + element + "]", removed);
      if (kept != REMOVE) {
        out.add(element);
      }
    }
    return out;
  }

  private static List<Object> mergeKeyed(ListSchema schema, List<?> live, List<?> want, FieldSet prev,
      FieldSet others, String path, List<String> removed) {
    List<Object> out = new ArrayList<>();
    Set<Object> matched = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    SchemaNode items = schema.items();
    for (Object element : want) {
      if (!(element instanceof Map<?, ?> e)) {
        if (element != null) {
          out.add(copy(element));
        }
        continue;
      }
      Optional<Map<String, Object>> keys = ListKeys.of(schema, e);
      Object counterpart = keys.map(k -> Comparison.find(schema, live, k)).orElse(null);
      if (counterpart == null) {
        out.add(copy(element));
        continue;
      }
      matched.add(counterpart);
      String element0 = FieldSet.key(keys.get());
      out.add(merge(items, counterpart, element, sub(prev, element0), sub(others, element0),
          path + "[" + keys.get() + "]", removed));
    }
    for (Object element : live) {
      if (element == null || matched.contains(element)) {
        continue;
      }
      Optional<Map<String, Object>> keys = element instanceof Map<?, ?> m ? ListKeys.of(schema, m) : Optional.empty();
      if (keys.isEmpty()) {
        out.add(element);
        continue;
      }
      Object kept = prune(items, element, prev, FieldSet.key(keys.get()), others,
          path + "[" + keys.get() + "]", removed);
      if (kept != REMOVE) {
        out.add(kept);
      }
    }
    return out;
  }

  /**
   * A live value desired does not set: removed when this writer owned it (and nobody else does),
   * trimmed of what this writer owned below it, else kept as it is.
   */
  private static Object prune(SchemaNode schema, Object live, FieldSet parentPrev, String element,
      FieldSet parentOthers, String path, List<String> removed) {
    FieldSet prev = sub(parentPrev, element);
    FieldSet others = sub(parentOthers, element);
    boolean owned = parentPrev.ownsAllChildren() || prev.member();
    if (owned && others.isEmpty()) {
      removed.add(path);
      return REMOVE;
    }
    if (prev.isEmpty() || owned) {
      return live;
    }
    if (live instanceof Map<?, ?> map && !(schema instanceof MapSchema m && m.atomic())) {
      MapSchema ms = schema instanceof MapSchema m ? m : null;
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> {
        SchemaNode child = ms == null ? UntypedSchema.INSTANCE : ms.child((String) k);
        Object kept = prune(child, v, prev, FieldSet.field((String) k), others, path + "." + k, removed);
        if (kept != REMOVE) {
          out.put((String) k, kept);
        }
      });
      return out;
    }
    if (live instanceof List<?> list && schema instanceof ListSchema ls && ls.type() != ListType.ATOMIC) {
      List<Object> out = new ArrayList<>();
      for (Object e : list) {
        String child;
        if (ls.type() == ListType.SET) {
          child = FieldSet.value(e);
        } else {
          Optional<Map<String, Object>> keys = e instanceof Map<?, ?> m ? ListKeys.of(ls, m) : Optional.empty();
          if (keys.isEmpty()) {
            out.add(e);
            continue;
          }
          child = FieldSet.key(keys.get());
        }
        Object kept = prune(ls.items(), e, prev, child, others, path + "[" + e + "]", removed);
        if (kept != REMOVE) {
          out.add(kept);
        }
      }
      return out;
    }
    return live;
  }

  private static FieldSet sub(FieldSet set, String element) {
    return set.child(element).orElse(FieldSet.empty());
  }

  /** A deep mutable copy of a JSON tree. */
  static Object copy(Object node) {
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
}
