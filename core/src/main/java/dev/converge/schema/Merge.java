package dev.converge.schema;

import dev.converge.strategy.tree.ResourceTree;
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

  /**
   * Whether merging {@code desired} into {@code live} would clear a one-of member, decided without
   * building the merged object.
   */
  public static boolean clearsMembers(SchemaNode schema, Object live, Object desired) {
    if (!(desired instanceof Map<?, ?> want) || !(live instanceof Map<?, ?> have)) {
      if (desired instanceof List<?> wantList && live instanceof List<?> haveList
          && schema instanceof ListSchema list && list.type() == ListType.MAP) {
        for (Object element : wantList) {
          if (element instanceof Map<?, ?> e) {
            Optional<Map<String, Object>> keys = ListKeys.of(list, e);
            Object counterpart = keys.map(k -> Comparison.find(list, haveList, k)).orElse(null);
            if (counterpart != null && clearsMembers(list.items(), counterpart, element)) {
              return true;
            }
          }
        }
      }
      return false;
    }
    MapSchema map = schema instanceof MapSchema m ? m : null;
    if (map == null || map.atomic()) {
      return false;
    }
    Optional<Union> union = Unions.of(map.typeName());
    if (union.isPresent()) {
      @SuppressWarnings("unchecked")
      Set<String> present = (Set<String>) (Set<?>) have.keySet();
      if (!union.get().toClear(want, present).isEmpty()) {
        return true;
      }
    }
    for (Map.Entry<?, ?> e : want.entrySet()) {
      Object value = e.getValue();
      if ((value instanceof Map<?, ?> || value instanceof List<?>)
          && clearsMembers(map.child((String) e.getKey()), have.get(e.getKey()), value)) {
        return true;
      }
    }
    return false;
  }

  private static Object merge(SchemaNode schema, Object live, Object want, FieldSet prev, FieldSet others,
      String path, List<String> removed) {
    if (want instanceof Map<?, ?> wantMap && !(schema instanceof ScalarSchema)) {
      MapSchema map = schema instanceof MapSchema m ? m : null;
      if (map != null && map.atomic()) {
        return atomic(schema, live, want);
      }
      return mergeMap(map, live instanceof Map<?, ?> l ? l : null, wantMap, prev, others, path, removed);
    }
    if (want instanceof List<?> wantList && !(schema instanceof ScalarSchema)) {
      ListSchema list = schema instanceof ListSchema l ? l : null;
      if (list == null || list.type() == ListType.ATOMIC || !(live instanceof List<?> liveList)) {
        return atomic(schema, live, want);
      }
      return list.type() == ListType.SET
          ? mergeSet(list, liveList, wantList, prev, others, path, removed)
          : mergeKeyed(list, liveList, wantList, prev, others, path, removed);
    }
    return ResourceTree.copy(want);
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
    List<Object> desired = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (Object element : want) {
      if (element != null && seen.add(CanonicalJson.of(element))) {
        desired.add(element);
      }
    }
    int[] match = new int[desired.size()];
    for (int i = 0; i < desired.size(); i++) {
      Object element = desired.get(i);
      match[i] = -1;
      for (int j = 0; j < live.size(); j++) {
        if (ScalarEquality.equal(schema.items(), live.get(j), element)) {
          match[i] = j;
          break;
        }
      }
    }
    return ordered(live, desired, match, i -> ResourceTree.copy(desired.get(i)), element -> {
      Object kept = prune(schema.items(), element, prev, FieldSet.value(element), others,
          path + "[" + element + "]", removed);
      return kept;
    });
  }

  private static List<Object> mergeKeyed(ListSchema schema, List<?> live, List<?> want, FieldSet prev,
      FieldSet others, String path, List<String> removed) {
    SchemaNode items = schema.items();
    List<Object> desired = new ArrayList<>();
    for (Object element : want) {
      if (element != null) {
        desired.add(element);
      }
    }
    int[] match = new int[desired.size()];
    for (int i = 0; i < desired.size(); i++) {
      Optional<Map<String, Object>> keys = desired.get(i) instanceof Map<?, ?> e ? ListKeys.of(schema, e) : Optional.empty();
      match[i] = keys.map(k -> Comparison.indexOf(schema, live, k)).orElse(-1);
    }
    return ordered(live, desired, match, i -> {
      Object element = desired.get(i);
      if (match[i] < 0 || !(element instanceof Map<?, ?> e)) {
        return ResourceTree.copy(element);
      }
      Map<String, Object> keys = ListKeys.of(schema, e).orElseThrow();
      String step = FieldSet.key(keys);
      return merge(items, live.get(match[i]), element, sub(prev, step), sub(others, step), path + "[" + keys + "]",
          removed);
    }, element -> {
      Optional<Map<String, Object>> keys = element instanceof Map<?, ?> m ? ListKeys.of(schema, m) : Optional.empty();
      if (keys.isEmpty()) {
        return element;
      }
      return prune(items, element, prev, FieldSet.key(keys.get()), others, path + "[" + keys.get() + "]", removed);
    });
  }

  /**
   * The merged list: when desired's elements already stand in live in desired's order, live's order
   * is kept (other writers' elements stay where they are, new elements follow their predecessor in
   * desired); otherwise desired's elements come first, in its order, then the others'.
   *
   * @param match for each desired element, its position in live or -1
   */
  private static List<Object> ordered(List<?> live, List<Object> desired, int[] match,
      java.util.function.IntFunction<Object> merged, java.util.function.UnaryOperator<Object> unmatched) {
    boolean inOrder = true;
    int last = -1;
    Set<Integer> matched = new java.util.HashSet<>();
    for (int m : match) {
      if (m >= 0) {
        inOrder &= m > last;
        last = Math.max(last, m);
        matched.add(m);
      }
    }
    List<Object> out = new ArrayList<>();
    if (!inOrder) {
      for (int i = 0; i < desired.size(); i++) {
        out.add(merged.apply(i));
      }
      for (int j = 0; j < live.size(); j++) {
        keepUnmatched(live.get(j), matched.contains(j), unmatched, out);
      }
      return out;
    }
    int next = 0;
    for (int j = 0; j < live.size(); j++) {
      if (matched.contains(j)) {
        while (next < desired.size() && match[next] != j) {
          out.add(merged.apply(next++));
        }
        out.add(merged.apply(next++));
      } else {
        keepUnmatched(live.get(j), false, unmatched, out);
      }
    }
    while (next < desired.size()) {
      out.add(merged.apply(next++));
    }
    return out;
  }

  private static void keepUnmatched(Object element, boolean matched, java.util.function.UnaryOperator<Object> unmatched,
      List<Object> out) {
    if (matched || element == null) {
      return;
    }
    Object kept = unmatched.apply(element);
    if (kept != REMOVE) {
      out.add(kept);
    }
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

  /**
   * An atomic value: desired replaces it whole, unless live already holds it — then live stays as it
   * is, with what the server defaulted inside it (a claim template's {@code volumeMode}), or the
   * write would repeat forever.
   */
  private static Object atomic(SchemaNode schema, Object live, Object want) {
    return live != null && Comparison.holdsValue(schema, live, want) ? live : ResourceTree.copy(want);
  }

}
