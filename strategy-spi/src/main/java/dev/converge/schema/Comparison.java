package dev.converge.schema;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a live object already holds what a desired object sets, decided by the kind's schema the
 * way the API server would store it:
 *
 * <ul>
 *   <li>only fields desired sets are looked at, so values the server defaulted or other writers
 *       added never count as a difference — except inside an atomic map, which desired replaces
 *       whole (a Service selector with an extra key is a difference);
 *   <li>map lists match elements by their key fields and set lists by value, with elements other
 *       writers added allowed anywhere, but desired's own elements in desired's order (the server
 *       orders them so on apply, and the order of containers or init containers matters); atomic
 *       lists must match position by position;
 *   <li>a quantity compares by amount only where the schema says the field is a quantity; every
 *       other string compares exactly ({@code "1.10"} is not {@code "1.1"});
 *   <li>a field live lacks holds a desired {@code false}, {@code 0} or {@code ""} only where the
 *       server drops zero values (fields of built-in structs); a map entry or a custom resource's
 *       field with an empty value is a value like any other.
 * </ul>
 */
public final class Comparison {

  private Comparison() {}

  /**
   * True when live holds every value desired sets: a strategy that finds this has nothing to write.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @return whether writing desired would change nothing the operator cares about
   */
  public static boolean holds(
      SchemaNode schema, Map<String, Object> live, Map<String, Object> desired) {
    return firstDifference(schema, live, desired).isEmpty();
  }

  /**
   * The path of the first value desired sets that live does not hold, for a log line or an event
   * that says why a strategy writes.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @return a dotted path from the root such as {@code .spec.replicas}, with list elements in
   *     brackets by key or value; empty when live holds everything
   */
  public static Optional<String> firstDifference(
      SchemaNode schema, Map<String, Object> live, Map<String, Object> desired) {
    return Optional.ofNullable(diff(schema, live, desired, ""));
  }

  /**
   * Whether live holds, inside a value desired replaces whole (an atomic list or map), fields or
   * keys desired does not set and that are not known server defaults — a protocol, an apiGroup, a
   * limit range's defaults the server fills in where desired leaves them out, or a value another
   * writer added. Only the server can tell which: strategies then learn its defaults for this
   * desired object (see {@code dev.converge.strategy.tree.ServerDefaults}) before comparing.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param desired the object the operator wants, as a tree
   * @return whether some atomic value of live holds more than desired and the schema can explain
   */
  public static boolean hasUnexplainedFieldsInAtomicValues(
      SchemaNode schema, Map<String, Object> live, Map<String, Object> desired) {
    boolean[] extras = new boolean[1];
    diff(schema, live, desired, "", false, extras);
    return extras[0];
  }

  /** Whether live holds {@code want} at a position of this schema. */
  static boolean holdsValue(SchemaNode schema, Object live, Object want) {
    return diff(schema, live, want, "", false) == null;
  }

  private static String diff(SchemaNode schema, Object live, Object want, String path) {
    return diff(schema, live, want, path, false);
  }

  private static String diff(
      SchemaNode schema, Object live, Object want, String path, boolean exact) {
    return diff(schema, live, want, path, exact, null);
  }

  /**
   * @param exact inside an atomic map or list: the value is replaced whole, so what live holds
   *     beyond desired is a difference too — except fields the server fills in itself
   */
  /**
   * @param extras when given, declared fields live holds beyond desired inside atomic values are
   *     noted in it instead of being a difference
   */
  private static String diff(
      SchemaNode schema, Object live, Object want, String path, boolean exact, boolean[] extras) {
    if (want == null) {
      return null;
    }
    if (want instanceof Map<?, ?> wantMap && !(schema instanceof ScalarSchema)) {
      return diffMap(schema instanceof MapSchema m ? m : null, live, wantMap, path, exact, extras);
    }
    if (want instanceof List<?> wantList && !(schema instanceof ScalarSchema)) {
      return diffList(
          schema instanceof ListSchema l ? l : null, live, wantList, path, exact, extras);
    }
    if (live == null) {
      return path;
    }
    return ScalarEquality.equal(schema, live, want) ? null : path;
  }

  private static String diffMap(
      MapSchema schema,
      Object live,
      Map<?, ?> want,
      String path,
      boolean inAtomic,
      boolean[] extras) {
    boolean exact = inAtomic || (schema != null && schema.atomic());
    if (!(live instanceof Map<?, ?> have)) {
      return live == null && !want.isEmpty() && absentHolds(schema, want) ? null : path;
    }
    for (Map.Entry<?, ?> e : want.entrySet()) {
      Object value = e.getValue();
      if (value == null) {
        continue;
      }
      String key = (String) e.getKey();
      String at = path + "." + key;
      Object current = have.get(key);
      SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
      if (current == null) {
        if (!absentHolds(schema, key, child, value)) {
          return at;
        }
        continue;
      }
      String d = diff(child, current, value, at, exact, extras);
      if (d != null) {
        return d;
      }
    }
    if (exact) {
      for (Map.Entry<?, ?> e : have.entrySet()) {
        String key = (String) e.getKey();
        boolean emptyStruct =
            e.getValue() instanceof Map<?, ?> m
                && m.isEmpty()
                && schema != null
                && schema.child(key) instanceof MapSchema child
                && !child.fieldNames().isEmpty();
        if (want.get(key) == null
            && (!isEmpty(e.getValue()) || emptyStruct)
            && !serverFilled(schema, key, e.getValue())) {
          if (extras != null) {
            extras[0] = true;
            continue;
          }
          return path + "." + key;
        }
      }
    }
    return null;
  }

  /**
   * Fields the server fills into a value desired replaces whole: declared defaults, zero values,
   * and the few defaults of built-in types the OpenAPI does not declare.
   */
  private static boolean serverFilled(MapSchema schema, String key, Object value) {
    if (schema == null || !schema.isField(key)) {
      return false;
    }
    if (schema.defaultOf(key).isPresent()
        || ScalarEquality.omittableZero(schema.child(key), value)) {
      return true;
    }
    return SERVER_DEFAULTS.getOrDefault(schema.typeName(), java.util.Set.of()).contains(key);
  }

  private static final Map<String, java.util.Set<String>> SERVER_DEFAULTS =
      Map.of(
          "io.k8s.api.core.v1.ObjectFieldSelector", java.util.Set.of("apiVersion"),
          "io.k8s.api.core.v1.ResourceFieldSelector", java.util.Set.of("divisor"),
          "io.k8s.api.core.v1.PersistentVolumeClaim",
              java.util.Set.of("apiVersion", "kind", "status"),
          "io.k8s.api.core.v1.PersistentVolumeClaimSpec", java.util.Set.of("volumeMode"),
          "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", java.util.Set.of("creationTimestamp"));

  private static String diffList(
      ListSchema schema,
      Object live,
      List<?> want,
      String path,
      boolean inAtomic,
      boolean[] extras) {
    if (!(live instanceof List<?> have)) {
      return live == null && want.isEmpty() ? null : path;
    }
    ListType type = schema == null ? ListType.ATOMIC : schema.type();
    SchemaNode items = schema == null ? UntypedSchema.INSTANCE : schema.items();
    boolean exact = inAtomic || (schema != null && type == ListType.ATOMIC);
    if (inAtomic && have.size() != want.size()) {
      return path;
    }
    switch (type) {
      case ATOMIC -> {
        if (have.size() != want.size()) {
          return path;
        }
        for (int i = 0; i < want.size(); i++) {
          String d = diff(items, have.get(i), want.get(i), path + "[" + i + "]", exact, extras);
          if (d != null) {
            return d;
          }
          if (want.get(i) == null && have.get(i) != null) {
            return path + "[" + i + "]";
          }
        }
        return null;
      }
      case SET -> {
        int last = -1;
        for (Object element : want) {
          if (element == null) {
            continue;
          }
          int at = indexOf(have, h -> ScalarEquality.equal(items, h, element));
          if (at < 0) {
            return path + "[" + element + "]";
          }
          if (at < last) {
            return path + " (order)";
          }
          last = at;
        }
        return null;
      }
      default -> {
        int last = -1;
        for (Object element : want) {
          if (!(element instanceof Map<?, ?> e)) {
            continue;
          }
          Optional<Map<String, Object>> keys = ListKeys.of(schema, e);
          String at = path + "[" + keys.map(Object::toString).orElse("?") + "]";
          if (keys.isEmpty()) {
            if (have.stream().noneMatch(h -> diff(items, h, element, at, exact, extras) == null)) {
              return at;
            }
            continue;
          }
          int index = indexOf(schema, have, keys.get());
          if (index < 0) {
            return at;
          }
          if (index < last) {
            return path + " (order)";
          }
          last = index;
          String d = diff(items, have.get(index), element, at, exact, extras);
          if (d != null) {
            return d;
          }
        }
        return null;
      }
    }
  }

  /** The element of {@code list} with these key values, or null. */
  static Object find(ListSchema schema, List<?> list, Map<String, Object> keys) {
    int index = indexOf(schema, list, keys);
    return index < 0 ? null : list.get(index);
  }

  /** The position of the element of {@code list} with these key values, or -1. */
  static int indexOf(ListSchema schema, List<?> list, Map<String, Object> keys) {
    return indexOf(
        list,
        candidate ->
            candidate instanceof Map<?, ?> c
                && ListKeys.of(schema, c).map(k -> ListKeys.same(k, keys)).orElse(false));
  }

  private static int indexOf(List<?> list, java.util.function.Predicate<Object> test) {
    for (int i = 0; i < list.size(); i++) {
      if (test.test(list.get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** A field live lacks still holds an empty value, or a zero value where the server omits them. */
  private static boolean absentHolds(MapSchema parent, String key, SchemaNode child, Object value) {
    if (value instanceof List<?> list && list.isEmpty()) {
      return true;
    }
    if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        // An empty map is usually not stored (an empty affinity term disappears), but an empty
        // one-of member is the member chosen ({@code emptyDir: {}}), which the server keeps.
        return !unionMember(parent, key);
      }
      return absentHolds(child instanceof MapSchema m ? m : null, map);
    }
    return parent != null
        && parent.omitsZeroValues()
        && parent.isField(key)
        && ScalarEquality.omittableZero(child, value);
  }

  private static boolean absentHolds(MapSchema schema, Map<?, ?> map) {
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      String key = (String) e.getKey();
      SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
      if (!absentHolds(schema, key, child, e.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code key} is a member of a one-of group of {@code parent}'s type. */
  static boolean unionMember(MapSchema parent, String key) {
    return parent != null
        && Unions.of(parent.typeName()).map(u -> u.members().contains(key)).orElse(false);
  }

  static boolean isEmpty(Object value) {
    return value == null
        || (value instanceof Map<?, ?> m && m.isEmpty())
        || (value instanceof List<?> l && l.isEmpty());
  }
}
