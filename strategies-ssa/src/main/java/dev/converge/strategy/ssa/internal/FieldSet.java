package dev.converge.strategy.ssa.internal;

import dev.converge.strategy.tree.Containment;
import dev.converge.strategy.tree.ResourceTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code managedFields[].fieldsV1} tree ({@code f:name}, {@code k:{...}} list keys, {@code v:}
 * set values, {@code i:} indexes) read against a desired JSON tree.
 */
public final class FieldSet {

  /** Top-level paths the server does not record as owned. */
  private static final Set<String> IDENTITY = Set.of("apiVersion", "kind");
  private static final Set<String> IDENTITY_METADATA = Set.of("name", "namespace");

  private final Map<String, Object> fields;

  public FieldSet(Map<String, Object> fields) {
    this.fields = fields == null ? Map.of() : fields;
  }

  /** Every path in this set is present in {@code desired}: applying desired would remove nothing. */
  public boolean coveredBy(Map<String, Object> desired) {
    return covered(fields, desired);
  }

  /** Every field {@code desired} sets is in this set: this manager owns all of desired. */
  public boolean owns(Map<String, Object> desired) {
    for (Map.Entry<String, Object> e : desired.entrySet()) {
      if (IDENTITY.contains(e.getKey()) || isEmpty(e.getValue())) {
        continue;
      }
      Object sub = fields.get("f:" + e.getKey());
      if (e.getKey().equals("metadata") && e.getValue() instanceof Map<?, ?> meta) {
        Map<String, Object> rest = new LinkedHashMap<>();
        meta.forEach((k, v) -> {
          if (!IDENTITY_METADATA.contains(k)) {
            rest.put((String) k, v);
          }
        });
        if (rest.values().stream().allMatch(FieldSet::isEmpty)) {
          continue;
        }
        if (!(sub instanceof Map<?, ?>) || !owned(rest, sub)) {
          return false;
        }
        continue;
      }
      if (!(sub instanceof Map<?, ?>) || !owned(e.getValue(), sub)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether live holds every desired value, reading lists the way the server merges them: a list
   * this set addresses by key ({@code k:{...}}) is associative, so live elements other managers added
   * do not count as a difference and desired elements are found by key; every other list is compared
   * whole, element by element.
   */
  public boolean heldBy(Map<String, Object> live, Map<String, Object> desired) {
    return held(live, desired, fields);
  }

  @SuppressWarnings("unchecked")
  private static boolean held(Object live, Object desired, Object fieldNode) {
    Map<?, ?> node = fieldNode instanceof Map<?, ?> m ? m : Map.of();
    if (desired instanceof Map<?, ?> want && live instanceof Map<?, ?> have && !node.isEmpty()) {
      for (Map.Entry<?, ?> e : want.entrySet()) {
        if (!held(have.get(e.getKey()), e.getValue(), node.get("f:" + e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof List<?> want && live instanceof List<?> have
        && node.keySet().stream().anyMatch(k -> String.valueOf(k).startsWith("k:"))) {
      for (int i = 0; i < want.size(); i++) {
        if (!(want.get(i) instanceof Map<?, ?> element)) {
          return Containment.contains(live, desired);
        }
        Map<String, Object> key = keyOf(node, element);
        if (key == null) {
          return Containment.contains(live, desired);
        }
        Object counterpart = byKey(have, key);
        if (counterpart == null || !held(counterpart, element, keyedEntry(node, element, i))) {
          return false;
        }
      }
      return true;
    }
    return Containment.contains(live, desired);
  }

  private static Map<String, Object> keyOf(Map<?, ?> node, Map<?, ?> element) {
    for (Object k : node.keySet()) {
      String key = (String) k;
      if (key.startsWith("k:")) {
        Map<String, Object> parsed = ResourceTree.parse(key.substring(2));
        if (matches(element, parsed)) {
          return parsed;
        }
      }
    }
    return null;
  }

  /** The union of two fieldsV1 trees. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> union(Map<String, Object> a, Map<String, Object> b) {
    Map<String, Object> out = ResourceTree.copyMap(a == null ? Map.of() : a);
    if (b != null) {
      b.forEach((k, v) -> {
        Object mine = out.get(k);
        if (mine instanceof Map<?, ?> m && v instanceof Map<?, ?> n) {
          out.put(k, union((Map<String, Object>) m, (Map<String, Object>) n));
        } else if (mine == null) {
          out.put(k, ResourceTree.copy(v));
        }
      });
    }
    return out;
  }

  private static boolean covered(Map<?, ?> fieldNode, Object desired) {
    for (Map.Entry<?, ?> e : fieldNode.entrySet()) {
      String key = (String) e.getKey();
      Map<?, ?> sub = e.getValue() instanceof Map<?, ?> m ? m : Map.of();
      Object next;
      if (key.equals(".")) {
        continue;
      } else if (key.startsWith("f:")) {
        if (!(desired instanceof Map<?, ?> map) || !map.containsKey(key.substring(2)) || map.get(key.substring(2)) == null) {
          return false;
        }
        next = map.get(key.substring(2));
      } else if (key.startsWith("k:")) {
        next = desired instanceof List<?> list ? byKey(list, ResourceTree.parse(key.substring(2))) : null;
        if (next == null) {
          return false;
        }
      } else if (key.startsWith("v:")) {
        Object value = ResourceTree.parse("{\"v\":" + key.substring(2) + "}").get("v");
        if (!(desired instanceof List<?> list) || list.stream().noneMatch(x -> Containment.scalarEquals(x, value))) {
          return false;
        }
        continue;
      } else if (key.startsWith("i:")) {
        int index = Integer.parseInt(key.substring(2));
        if (!(desired instanceof List<?> list) || list.size() <= index) {
          return false;
        }
        next = list.get(index);
      } else {
        return false;
      }
      if (!sub.isEmpty() && !covered(sub, next)) {
        return false;
      }
    }
    return true;
  }

  private static boolean owned(Object desired, Object fieldNode) {
    if (!(fieldNode instanceof Map<?, ?> node)) {
      return false;
    }
    if (node.isEmpty()) {
      // A leaf in the field set: a scalar, or an atomic map or list (a label selector) owned whole.
      return true;
    }
    if (desired instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (isEmpty(e.getValue())) {
          continue;
        }
        Object sub = node.get("f:" + e.getKey());
        if (sub == null || !owned(e.getValue(), sub)) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        Object element = list.get(i);
        Object sub = element instanceof Map<?, ?> m ? keyedEntry(node, m, i) : valueEntry(node, element);
        if (sub == null || !owned(element, sub)) {
          return false;
        }
      }
      return true;
    }
    return true;
  }

  private static Object keyedEntry(Map<?, ?> node, Map<?, ?> element, int index) {
    for (Map.Entry<?, ?> e : node.entrySet()) {
      String key = (String) e.getKey();
      if (key.startsWith("k:") && matches(element, ResourceTree.parse(key.substring(2)))) {
        return e.getValue();
      }
    }
    return node.get("i:" + index);
  }

  private static Object valueEntry(Map<?, ?> node, Object element) {
    for (Map.Entry<?, ?> e : node.entrySet()) {
      String key = (String) e.getKey();
      if (key.startsWith("v:")
          && Containment.scalarEquals(ResourceTree.parse("{\"v\":" + key.substring(2) + "}").get("v"), element)) {
        return e.getValue() instanceof Map<?, ?> ? e.getValue() : Map.of();
      }
    }
    return null;
  }

  private static Object byKey(List<?> list, Map<String, Object> key) {
    return list.stream().filter(x -> x instanceof Map<?, ?> m && matches(m, key)).findFirst().orElse(null);
  }

  // A key field the desired element leaves out (e.g. a port's defaulted protocol) does not disqualify it.
  private static boolean matches(Map<?, ?> element, Map<String, Object> key) {
    boolean any = false;
    for (Map.Entry<String, Object> k : key.entrySet()) {
      Object value = element.get(k.getKey());
      if (value == null) {
        continue;
      }
      if (!Containment.scalarEquals(value, k.getValue())) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private static boolean isEmpty(Object v) {
    return v == null || (v instanceof Map<?, ?> m && m.isEmpty()) || (v instanceof List<?> l && l.isEmpty());
  }
}
