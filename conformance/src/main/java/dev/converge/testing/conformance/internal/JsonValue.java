package dev.converge.testing.conformance.internal;

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
 * compares them: numbers by value whatever their Java type, strings exactly (no quantity or
 * number parsing: {@code "1.1"} and {@code "1.10"} differ), maps by keys, lists by order.
 */
public final class JsonValue {

  private JsonValue() {}

  /** The JSON form of any model object, as plain maps and lists. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> tree(Object object) {
    return Serialization.jsonMapper().convertValue(object, LinkedHashMap.class);
  }

  /** Deep equality; keys in {@code presenceOnly} are compared only for being present on both sides. */
  public static boolean equal(Object a, Object b, Set<String> presenceOnly) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        if (!presenceOnly.contains(String.valueOf(e.getKey())) && !equal(e.getValue(), y.get(e.getKey()), presenceOnly)) {
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
        if (!equal(i.next(), j.next(), presenceOnly)) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  /**
   * Where {@code a} and {@code b} first differ, as a path suffix such as {@code [0].resources.limits}
   * followed by both values; empty when they are equal or differ at the top.
   */
  public static String firstDifference(Object a, Object b, Set<String> presenceOnly) {
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      Set<Object> keys = new java.util.LinkedHashSet<>(x.keySet());
      keys.addAll(y.keySet());
      for (Object k : keys) {
        if (presenceOnly.contains(String.valueOf(k)) && x.containsKey(k) == y.containsKey(k)) {
          continue;
        }
        if (!equal(x.get(k), y.get(k), presenceOnly)) {
          String deeper = firstDifference(x.get(k), y.get(k), presenceOnly);
          return "." + k + (deeper.isEmpty() ? " (" + text(x.get(k), 120) + " vs " + text(y.get(k), 120) + ")" : deeper);
        }
      }
      return "";
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        if (!equal(x.get(i), y.get(i), presenceOnly)) {
          String deeper = firstDifference(x.get(i), y.get(i), presenceOnly);
          return "[" + i + "]" + (deeper.isEmpty() ? " (" + text(x.get(i), 120) + " vs " + text(y.get(i), 120) + ")" : deeper);
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
