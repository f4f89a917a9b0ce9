package dev.converge.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lays a desired object over a live one the way the server merges an apply, for strategies that
 * send the whole result (PUT) or its difference (JSON merge patch):
 *
 * <ul>
 *   <li>maps merge key by key and keep keys desired does not mention — server defaults, other
 *       writers' keys — unless the map is atomic, which desired replaces whole;
 *   <li>map lists merge element by element, matched by their key fields; set lists keep other
 *       writers' elements; atomic lists are replaced;
 *   <li>what this writer set before ({@code previouslyOwned}) and desired no longer sets is
 *       removed: a dropped label, a dropped container, a dropped probe with the values the server
 *       defaulted inside it;
 *   <li>unless another writer ({@code ownedByOthers}) owns that very value too — another applier
 *       that declared it, an update of the object, an update through a subresource such as {@code
 *       /scale}: then it stays, as the API server's own apply keeps a field another manager still
 *       owns (only what this writer alone owned below it goes);
 *   <li>a value another writer owns only parts of (a probe whose period it tuned) goes whole, since
 *       what would stay is rarely valid on its own (a probe without a handler); a map or list
 *       element another writer added something of its own to keeps their part;
 *   <li>one-of members desired does not select are cleared ({@link Unions}).
 * </ul>
 */
public final class Merge {

  private static final Object REMOVE = new Object();

  /** Marks a removed path as a cleared one-of member while merging. */
  private static final String CLEARED = "!";

  /** Marks a removed path another writer owns too. */
  private static final String CONTESTED = "~";

  private Merge() {}

  /**
   * The merged object and the paths it removed from live.
   *
   * @param object a new tree; neither input is changed
   * @param removed the paths removed, in a readable form ({@code .spec.strategy.rollingUpdate}),
   *     including {@code cleared}
   * @param cleared the one-of members cleared because desired selects another one
   * @param contested the values removed although another writer owns them too
   * @param pointers for each removed path, the JSON pointer (RFC 6901) of the value in live — list
   *     elements by their position in live — for a write that removes it there
   */
  public record Result(
      Map<String, Object> object,
      List<String> removed,
      List<String> cleared,
      List<String> contested,
      Map<String, String> pointers) {

    /**
     * The JSON pointer into live of a removed path, for a JSON patch that removes it there.
     *
     * @param path one of {@link #removed()}
     * @return its pointer, list elements by their position in live
     * @throws IllegalArgumentException if {@code path} is not a removed path
     */
    public String pointer(String path) {
      String pointer = pointers.get(path);
      if (pointer == null) {
        throw new IllegalArgumentException("not a removed path: " + path);
      }
      return pointer;
    }
  }

  /** Separates a removed path from its JSON pointer while merging. */
  private static final char POINTER = '\u0001';

  /**
   * Merges {@code desired} into {@code live}, for a writer whose earlier writes are all recorded in
   * {@code previouslyOwned}.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @param previouslyOwned the fields this writer set before (its record or its managedFields
   *     entry); what it no longer sets is removed
   * @param ownedByOthers the fields other writers own; they stay even when this writer owned them
   *     too
   * @return the merged object and what it removed from live
   */
  public static Result apply(
      SchemaNode schema,
      Map<String, Object> live,
      Map<String, Object> desired,
      FieldSet previouslyOwned,
      FieldSet ownedByOthers) {
    return apply(schema, live, desired, previouslyOwned, ownedByOthers, FieldSet.empty());
  }

  /**
   * Merges {@code desired} into {@code live}, where {@code alsoHeldByThisWriter} are fields this
   * writer holds under another name than {@code previouslyOwned}'s (a server-side applier's own
   * {@code Update} entries: its JSON patches). They keep nothing, as its own, but a value removed
   * while they hold part of it is reported {@linkplain Result#contested contested}: a write that
   * removes only what one entry owns (an apply) would leave that part behind.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @param previouslyOwned the fields this writer set before under the name it writes with now;
   *     what it no longer sets is removed
   * @param ownedByOthers the fields other writers own; they stay even when this writer owned them
   *     too
   * @param alsoHeldByThisWriter the fields this writer holds under other names
   * @return the merged object and what it removed from live
   */
  @SuppressWarnings("unchecked")
  public static Result apply(
      SchemaNode schema,
      Map<String, Object> live,
      Map<String, Object> desired,
      FieldSet previouslyOwned,
      FieldSet ownedByOthers,
      FieldSet alsoHeldByThisWriter) {
    List<String> removed = new ArrayList<>();
    Owners owners = new Owners(ownedByOthers, ownedByOthers.union(alsoHeldByThisWriter));
    Object merged = merge(schema, live, desired, previouslyOwned, owners, Trail.ROOT, removed);
    List<String> all = new ArrayList<>();
    List<String> cleared = new ArrayList<>();
    List<String> contested = new ArrayList<>();
    Map<String, String> pointers = new LinkedHashMap<>();
    for (String entry : removed) {
      int split = entry.indexOf(POINTER);
      String marked = entry.substring(0, split);
      String path =
          marked.startsWith(CLEARED) || marked.startsWith(CONTESTED) ? marked.substring(1) : marked;
      all.add(path);
      if (marked.startsWith(CLEARED)) {
        cleared.add(path);
      } else if (marked.startsWith(CONTESTED)) {
        contested.add(path);
      }
      pointers.put(path, entry.substring(split + 1));
    }
    return new Result(
        (Map<String, Object>) merged,
        List.copyOf(all),
        List.copyOf(cleared),
        List.copyOf(contested),
        java.util.Collections.unmodifiableMap(pointers));
  }

  /**
   * Whether merging {@code desired} into {@code live} would clear a one-of member, decided without
   * building the merged object: live may hold every value desired sets and still need a write,
   * because the member desired leaves out must go.
   *
   * @param schema the schema of the values, from {@link ResourceSchemas}
   * @param live the live value, as a tree ({@link ResourceTree})
   * @param desired the desired value, as a tree
   * @return true when live holds a one-of member beside the one desired selects
   */
  public static boolean clearsMembers(SchemaNode schema, Object live, Object desired) {
    if (!(desired instanceof Map<?, ?> want) || !(live instanceof Map<?, ?> have)) {
      if (desired instanceof List<?> wantList
          && live instanceof List<?> haveList
          && schema instanceof ListSchema list
          && list.type() == ListType.MAP) {
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

  private static Object merge(
      SchemaNode schema,
      Object live,
      Object want,
      FieldSet prev,
      Owners others,
      Trail path,
      List<String> removed) {
    if (want instanceof Map<?, ?> wantMap && !(schema instanceof ScalarSchema)) {
      MapSchema map = schema instanceof MapSchema m ? m : null;
      if (map != null && map.atomic()) {
        return atomic(schema, live, want);
      }
      return mergeMap(
          map, live instanceof Map<?, ?> l ? l : null, wantMap, prev, others, path, removed);
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

  private static Map<String, Object> mergeMap(
      MapSchema schema,
      Map<?, ?> live,
      Map<?, ?> want,
      FieldSet prev,
      Owners others,
      Trail path,
      List<String> removed) {
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
      out.put(
          key,
          merge(
              child,
              out.get(key),
              e.getValue(),
              sub(prev, element),
              sub(others, element),
              path.field(key),
              removed));
    }
    if (live != null) {
      for (Map.Entry<?, ?> e : live.entrySet()) {
        String key = (String) e.getKey();
        if (want.get(key) != null) {
          continue;
        }
        SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
        Object kept =
            prune(child, e.getValue(), prev, FieldSet.field(key), others, path.field(key), removed);
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
          removed.add(CLEARED + path.field(member).render());
        }
      }
    }
    return out;
  }

  private static List<Object> mergeSet(
      ListSchema schema,
      List<?> live,
      List<?> want,
      FieldSet prev,
      Owners others,
      Trail path,
      List<String> removed) {
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
    return ordered(
        live,
        desired,
        match,
        i -> ResourceTree.copy(desired.get(i)),
        (element, index) ->
            prune(
                schema.items(),
                element,
                prev,
                FieldSet.value(element),
                others,
                path.element(element, index),
                removed));
  }

  private static List<Object> mergeKeyed(
      ListSchema schema,
      List<?> live,
      List<?> want,
      FieldSet prev,
      Owners others,
      Trail path,
      List<String> removed) {
    SchemaNode items = schema.items();
    List<Object> desired = new ArrayList<>();
    for (Object element : want) {
      if (element != null) {
        desired.add(element);
      }
    }
    int[] match = new int[desired.size()];
    for (int i = 0; i < desired.size(); i++) {
      Optional<Map<String, Object>> keys =
          desired.get(i) instanceof Map<?, ?> e ? ListKeys.of(schema, e) : Optional.empty();
      match[i] = keys.map(k -> Comparison.indexOf(schema, live, k)).orElse(-1);
    }
    return ordered(
        live,
        desired,
        match,
        i -> {
          Object element = desired.get(i);
          if (match[i] < 0 || !(element instanceof Map<?, ?> e)) {
            return ResourceTree.copy(element);
          }
          Map<String, Object> keys = ListKeys.of(schema, e).orElseThrow();
          String step = FieldSet.key(keys);
          return merge(
              items,
              live.get(match[i]),
              element,
              sub(prev, step),
              sub(others, step),
              path.element(keys, match[i]),
              removed);
        },
        (element, index) -> {
          Optional<Map<String, Object>> keys =
              element instanceof Map<?, ?> m ? ListKeys.of(schema, m) : Optional.empty();
          if (keys.isEmpty()) {
            return element;
          }
          return prune(
              items,
              element,
              prev,
              FieldSet.key(keys.get()),
              others,
              path.element(keys.get(), index),
              removed);
        });
  }

  /**
   * The merged list: when desired's elements already stand in live in desired's order, live's order
   * is kept (other writers' elements stay where they are, new elements follow their predecessor in
   * desired); otherwise desired's elements come first, in its order, then the others'.
   *
   * @param match for each desired element, its position in live or -1
   */
  private static List<Object> ordered(
      List<?> live,
      List<Object> desired,
      int[] match,
      java.util.function.IntFunction<Object> merged,
      java.util.function.BiFunction<Object, Integer, Object> unmatched) {
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
        keepUnmatched(live.get(j), j, matched.contains(j), unmatched, out);
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
        keepUnmatched(live.get(j), j, false, unmatched, out);
      }
    }
    while (next < desired.size()) {
      out.add(merged.apply(next++));
    }
    return out;
  }

  private static void keepUnmatched(
      Object element,
      int index,
      boolean matched,
      java.util.function.BiFunction<Object, Integer, Object> unmatched,
      List<Object> out) {
    if (matched || element == null) {
      return;
    }
    Object kept = unmatched.apply(element, index);
    if (kept != REMOVE) {
      out.add(kept);
    }
  }

  /**
   * A live value desired does not set: removed when this writer owned it (and nobody else does),
   * trimmed of what this writer owned below it, else kept as it is.
   */
  private static Object prune(
      SchemaNode schema,
      Object live,
      FieldSet parentPrev,
      String element,
      Owners parentOthers,
      Trail path,
      List<String> removed) {
    Owners others = sub(parentOthers, element);
    FieldSet prev = parentPrev.ownsAllChildren() ? FieldSet.everything() : sub(parentPrev, element);
    boolean owned = prev.member();
    if (owned && others.keeping().member()) {
      // Another writer owns this very value too (another applier declared it, an update of the
      // object or of its /scale set it): it stays, as the server's apply keeps a field another
      // manager still owns. Only what this writer alone set below it goes (trimmed below).
      if (prev.isEmpty() || prev.elements().isEmpty()) {
        return live;
      }
    } else if (owned
        && (others.holding().isEmpty()
            || prev.elements().isEmpty()
            || (!collection(schema, live) && others.holding().minus(prev).isEmpty()))) {
      // A value this writer set goes whole when desired drops it, even where another writer
      // changed parts of it since (the server then lists them both): what would stay is rarely
      // valid alone (a probe without a handler). Only a map or element that another writer added
      // something of its own to is trimmed of this writer's part below.
      removed.add((others.holding().isEmpty() ? "" : CONTESTED) + path.render());
      return REMOVE;
    } else if (!element.startsWith("f:") && owned) {
      // A list element this writer added and dropped goes, even where another writer changed a
      // field inside it since (a drifted targetPort must not keep a dropped port alive).
      removed.add(path.render());
      return REMOVE;
    }
    if (prev.isEmpty()) {
      return live;
    }
    Object trimmed = trim(schema, live, prev, others, path, removed);
    if (owned
        && !others.keeping().member()
        && ((trimmed instanceof Map<?, ?> m && m.isEmpty())
            || (trimmed instanceof List<?> l && l.isEmpty()))) {
      // A map or list of separate values (labels, a map list) this writer set, of which nothing
      // another writer owns is left.
      removed.add(path.render());
      return REMOVE;
    }
    return trimmed;
  }

  /**
   * Whether a value is a collection of separate values — a string-keyed map (labels, data), a map
   * list or a set — rather than one value with parts (a struct such as a probe): each of its keys
   * or elements is kept or removed on its own.
   */
  private static boolean collection(SchemaNode schema, Object live) {
    if (live instanceof List<?>) {
      return !(schema instanceof ListSchema ls) || ls.type() != ListType.ATOMIC;
    }
    return live instanceof Map<?, ?>
        && !(schema instanceof MapSchema m && (m.atomic() || !m.fieldNames().isEmpty()));
  }

  /** {@code live} without what this writer alone set below it. */
  private static Object trim(
      SchemaNode schema,
      Object live,
      FieldSet prev,
      Owners others,
      Trail path,
      List<String> removed) {
    if (live instanceof Map<?, ?> map && !(schema instanceof MapSchema m && m.atomic())) {
      MapSchema ms = schema instanceof MapSchema m ? m : null;
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            SchemaNode child = ms == null ? UntypedSchema.INSTANCE : ms.child((String) k);
            Object kept =
                prune(
                    child,
                    v,
                    prev,
                    FieldSet.field((String) k),
                    others,
                    path.field((String) k),
                    removed);
            if (kept != REMOVE) {
              out.put((String) k, kept);
            }
          });
      return out;
    }
    if (live instanceof List<?> list
        && schema instanceof ListSchema ls
        && ls.type() != ListType.ATOMIC) {
      List<Object> out = new ArrayList<>();
      int index = -1;
      for (Object e : list) {
        index++;
        String child;
        if (ls.type() == ListType.SET) {
          child = FieldSet.value(e);
        } else {
          Optional<Map<String, Object>> keys =
              e instanceof Map<?, ?> m ? ListKeys.of(ls, m) : Optional.empty();
          if (keys.isEmpty()) {
            out.add(e);
            continue;
          }
          child = FieldSet.key(keys.get());
        }
        Object kept = prune(ls.items(), e, prev, child, others, path.element(e, index), removed);
        if (kept != REMOVE) {
          out.add(kept);
        }
      }
      return out;
    }
    return live;
  }

  /**
   * The desired value standing where a JSON pointer into live points: map steps by key, list steps
   * by the live element's keys (map lists) or value (sets), so positions that differ between live
   * and desired still meet. Null when desired has nothing there.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @param pointer a JSON pointer (RFC 6901) into live, such as one of {@link Result#pointer};
   *     empty for the whole object
   * @return the desired value at that place, or null
   * @throws NumberFormatException if a step into a list is not a position
   */
  public static Object desiredAt(SchemaNode schema, Object live, Object desired, String pointer) {
    if (pointer.isEmpty()) {
      return desired;
    }
    SchemaNode node = schema;
    Object have = live;
    Object want = desired;
    for (String raw : pointer.substring(1).split("/", -1)) {
      String step = raw.replace("~1", "/").replace("~0", "~");
      if (have instanceof Map<?, ?> map) {
        have = map.get(step);
        want = want instanceof Map<?, ?> w ? w.get(step) : null;
        node = node instanceof MapSchema ms ? ms.child(step) : UntypedSchema.INSTANCE;
      } else if (have instanceof List<?> list && node instanceof ListSchema ls) {
        int index = Integer.parseInt(step);
        have = index < list.size() ? list.get(index) : null;
        Object element = have;
        if (!(want instanceof List<?> wantList) || element == null) {
          want = null;
        } else if (ls.type() == ListType.MAP && element instanceof Map<?, ?> e) {
          want = ListKeys.of(ls, e).map(k -> Comparison.find(ls, wantList, k)).orElse(null);
        } else if (ls.type() == ListType.SET) {
          want =
              wantList.stream()
                  .filter(w -> ScalarEquality.equal(ls.items(), element, w))
                  .findFirst()
                  .orElse(null);
        } else {
          want = null;
        }
        node = ls.items();
      } else {
        return null;
      }
      if (want == null) {
        return null;
      }
    }
    return want;
  }

  /**
   * What a JSON patch should {@code test} before it writes at {@code pointer} in live, so that a
   * list position still names the same element: for each list step, the element's key fields (map
   * lists) or its value (sets), by pointer. Atomic lists and untyped lists have no identity to
   * test; their positions are tested by the element value.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param pointer a JSON pointer (RFC 6901) into live; empty for the whole object
   * @return for each list step, the pointer of the value to test and the value live holds there, in
   *     the order of the steps; a new map, empty when no list lies on the way
   * @throws NumberFormatException if a step into a list is not a position
   */
  public static Map<String, Object> positionTests(SchemaNode schema, Object live, String pointer) {
    Map<String, Object> tests = new LinkedHashMap<>();
    if (pointer.isEmpty()) {
      return tests;
    }
    SchemaNode node = schema;
    Object have = live;
    StringBuilder at = new StringBuilder();
    for (String raw : pointer.substring(1).split("/", -1)) {
      String step = raw.replace("~1", "/").replace("~0", "~");
      at.append('/').append(raw);
      if (have instanceof Map<?, ?> map) {
        have = map.get(step);
        node = node instanceof MapSchema ms ? ms.child(step) : UntypedSchema.INSTANCE;
      } else if (have instanceof List<?> list) {
        int index = Integer.parseInt(step);
        have = index < list.size() ? list.get(index) : null;
        ListSchema ls = node instanceof ListSchema l ? l : null;
        Optional<Map<String, Object>> keys =
            ls != null && ls.type() == ListType.MAP && have instanceof Map<?, ?> e
                ? ListKeys.of(ls, e)
                : Optional.empty();
        if (keys.isPresent() && have instanceof Map<?, ?> e) {
          for (String field : ls.keys()) {
            if (e.get(field) != null) {
              tests.put(at + "/" + escape(field), e.get(field));
            }
          }
        } else if (have != null) {
          tests.put(at.toString(), have);
        }
        node = ls == null ? UntypedSchema.INSTANCE : ls.items();
      } else {
        break;
      }
    }
    return tests;
  }

  /**
   * Where the merge is, rendered only when something is removed there: the readable path ({@code
   * .spec.containers[{name=web}].image}) and the JSON pointer into live ({@code
   * /spec/containers/0/image}).
   *
   * @param key the map key of this step, or null for a list element
   * @param label the element's keys or value, for the readable path
   * @param index the element's position in live
   */
  private record Trail(Trail parent, String key, Object label, int index) {
    static final Trail ROOT = new Trail(null, null, null, -1);

    Trail field(String name) {
      return new Trail(this, name, null, -1);
    }

    Trail element(Object elementLabel, int position) {
      return new Trail(this, null, elementLabel, position);
    }

    /** The readable path, the separator and the pointer. */
    String render() {
      StringBuilder readable = new StringBuilder();
      StringBuilder pointer = new StringBuilder();
      append(readable, pointer);
      return readable.append(POINTER).append(pointer).toString();
    }

    private void append(StringBuilder readable, StringBuilder pointer) {
      if (parent == null) {
        return;
      }
      parent.append(readable, pointer);
      if (key != null) {
        readable.append('.').append(key);
        pointer.append('/').append(escape(key));
      } else {
        readable.append('[').append(label).append(']');
        pointer.append('/').append(index);
      }
    }
  }

  /** A map key as a JSON pointer step (RFC 6901). */
  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private static FieldSet sub(FieldSet set, String element) {
    return set.child(element).orElse(FieldSet.empty());
  }

  private static Owners sub(Owners owners, String element) {
    return new Owners(sub(owners.keeping(), element), sub(owners.holding(), element));
  }

  /**
   * The other owners at one path: {@code keeping}, whose ownership of a value keeps it; {@code
   * holding}, those and this writer's other entries, whose ownership of part of a removed value
   * makes its removal contested.
   */
  private record Owners(FieldSet keeping, FieldSet holding) {}

  /**
   * An atomic value: desired replaces it whole, unless live already holds it — then live stays as
   * it is, with what the server defaulted inside it (a claim template's {@code volumeMode}), or the
   * write would repeat forever.
   */
  private static Object atomic(SchemaNode schema, Object live, Object want) {
    return live != null && Comparison.holdsValue(schema, live, want)
        ? live
        : ResourceTree.copy(want);
  }
}
