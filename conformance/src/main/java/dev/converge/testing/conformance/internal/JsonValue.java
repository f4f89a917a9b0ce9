package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Values of the JSON form of an object (maps, lists, strings, numbers, booleans), as the judge
 * compares them: numbers by value whatever their Java type, strings exactly (no quantity or number
 * parsing: {@code "1.1"} and {@code "1.10"} differ), maps by keys, lists by order.
 */
public final class JsonValue {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private JsonValue() {}

  /** The JSON form of any model object, as plain maps and lists. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> tree(Object object) {
    return JSON.convertValue(object, LinkedHashMap.class);
  }

  /**
   * Deep equality; keys in {@code presenceOnly} are compared only for being present on both sides.
   */
  public static boolean equal(Object a, Object b, Set<String> presenceOnly) {
    return equal(a, b, presenceOnly, List.of());
  }

  /**
   * Deep equality of the values at {@code keys} (the map keys leading to them, list positions left
   * out). Strings are compared exactly, except in the fields the Kubernetes API types as Quantity
   * (container requests and limits, quota {@code hard}, {@code sizeLimit}, an autoscaler target's
   * {@code averageValue} and {@code value}), which the API server compares by amount: there {@code
   * "200Mi"} and {@code "209715200"} are the same value.
   */
  public static boolean equal(Object a, Object b, Set<String> presenceOnly, List<String> keys) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return new java.math.BigDecimal(x.toString())
              .compareTo(new java.math.BigDecimal(y.toString()))
          == 0;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        String key = String.valueOf(e.getKey());
        if (!presenceOnly.contains(key)
            && !equal(e.getValue(), y.get(e.getKey()), presenceOnly, plus(keys, key))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<?> i = x.iterator();
      Iterator<?> j = y.iterator();
      while (i.hasNext()) {
        if (!equal(i.next(), j.next(), presenceOnly, keys)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof String x && b instanceof String y && !x.equals(y) && quantityField(keys)) {
      try {
        return new Quantity(x).getNumericalAmount().compareTo(new Quantity(y).getNumericalAmount())
            == 0;
      } catch (IllegalArgumentException | ArithmeticException e) {
        return false; // not a quantity after all: compared as text, and they differ
      }
    }
    return Objects.equals(a, b);
  }

  private static boolean quantityField(List<String> keys) {
    int n = keys.size();
    if (n == 0) {
      return false;
    }
    String key = keys.get(n - 1);
    String parent = n > 1 ? keys.get(n - 2) : "";
    String grandparent = n > 2 ? keys.get(n - 3) : "";
    return ((parent.equals("requests") || parent.equals("limits"))
            && grandparent.equals("resources"))
        || parent.equals("hard")
        || key.equals("sizeLimit")
        || (parent.equals("target") && (key.equals("averageValue") || key.equals("value")));
  }

  private static List<String> plus(List<String> keys, String key) {
    List<String> more = new ArrayList<>(keys);
    more.add(key);
    return more;
  }

  /**
   * Where {@code a} and {@code b} first differ, as a path suffix such as {@code
   * [0].resources.limits} followed by both values; empty when they are equal or differ at the top.
   */
  public static String firstDifference(Object a, Object b, Set<String> presenceOnly) {
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      Set<Object> keys = new java.util.LinkedHashSet<>(x.keySet());
      keys.addAll(y.keySet());
      for (Object k : keys) {
        if (presenceOnly.contains(String.valueOf(k)) && x.containsKey(k) == y.containsKey(k)) {
          continue;
        }
        if (!equal(x.get(k), y.get(k), presenceOnly, List.of())) {
          String deeper = firstDifference(x.get(k), y.get(k), presenceOnly);
          return "."
              + k
              + (deeper.isEmpty()
                  ? " (" + text(x.get(k), 120) + " vs " + text(y.get(k), 120) + ")"
                  : deeper);
        }
      }
      return "";
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        if (!equal(x.get(i), y.get(i), presenceOnly)) {
          String deeper = firstDifference(x.get(i), y.get(i), presenceOnly);
          return "["
              + i
              + "]"
              + (deeper.isEmpty()
                  ? " (" + text(x.get(i), 120) + " vs " + text(y.get(i), 120) + ")"
                  : deeper);
        }
      }
      return x.size() == y.size() ? "" : " (" + x.size() + " vs " + y.size() + " elements)";
    }
    return "";
  }

  /** Deep equality with every key compared. */
  public static boolean equal(Object a, Object b) {
    return equal(a, b, Set.of());
  }

  /** A deep, mutable copy. */
  @SuppressWarnings("unchecked")
  public static <T> T copy(T value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
      return (T) out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(v -> out.add(copy(v)));
      return (T) out;
    }
    return value;
  }

  /** Compact JSON text, cut to {@code max} characters. */
  public static String text(Object value, int max) {
    String json = value == null ? "absent" : Serialization.asJson(value);
    return json.length() > max ? json.substring(0, max) + "…(" + json.length() + " chars)" : json;
  }

  /** Compact JSON text, cut to 300 characters. */
  public static String text(Object value) {
    return text(value, 300);
  }
}
