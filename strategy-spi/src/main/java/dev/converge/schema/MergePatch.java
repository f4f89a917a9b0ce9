package dev.converge.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The RFC 7386 JSON merge patch that turns a live object into a target object (usually a {@link
 * Merge} result), judged by the schema so that the patch is empty exactly when the server would
 * store nothing new: quantities compare by amount, numbers by value, a zero value or an empty map
 * or list the server drops is no difference. Lists cannot be patched element by element with a
 * merge patch, so a list that differs in any way is sent whole. {@code status} is never part of it.
 */
public final class MergePatch {

  private MergePatch() {}

  /**
   * The patch; empty when the server would store the same object.
   *
   * @param schema the schema of the kind, from {@link ResourceSchemas}
   * @param live the object as read from the API server, as a tree ({@link ResourceTree})
   * @param target the whole object to be stored, as a tree; a key it lacks that live holds is
   *     removed ({@code null} in the patch)
   * @return a new patch holding copies of target's values, never {@code status}; empty when there
   *     is nothing to send
   */
  public static Map<String, Object> between(
      SchemaNode schema, Map<String, Object> live, Map<String, Object> target) {
    Map<String, Object> patch = diff(schema instanceof MapSchema m ? m : null, live, target);
    patch.remove("status");
    return patch;
  }

  private static Map<String, Object> diff(MapSchema schema, Map<?, ?> live, Map<?, ?> target) {
    Map<String, Object> patch = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : target.entrySet()) {
      String key = (String) e.getKey();
      Object want = e.getValue();
      Object have = live.get(key);
      SchemaNode child = schema == null ? UntypedSchema.INSTANCE : schema.child(key);
      if (want == null) {
        if (have != null) {
          patch.put(key, null);
        }
      } else if (have == null) {
        if (!omitted(schema, key, child, want)) {
          patch.put(key, ResourceTree.copy(want));
        }
      } else if (want instanceof Map<?, ?> w
          && have instanceof Map<?, ?> h
          && !(child instanceof ScalarSchema)) {
        Map<String, Object> sub = diff(child instanceof MapSchema m ? m : null, h, w);
        if (!sub.isEmpty()) {
          patch.put(key, sub);
        }
      } else if (!same(child, have, want)) {
        patch.put(key, ResourceTree.copy(want));
      }
    }
    for (Map.Entry<?, ?> e : live.entrySet()) {
      if (!target.containsKey(e.getKey()) && e.getValue() != null) {
        patch.put((String) e.getKey(), null);
      }
    }
    return patch;
  }

  /** Whether a value live lacks is one the server would not store anyway. */
  private static boolean omitted(MapSchema parent, String key, SchemaNode child, Object value) {
    if (value instanceof List<?> l) {
      return l.isEmpty();
    }
    if (value instanceof Map<?, ?> m) {
      return m.isEmpty() && !Comparison.unionMember(parent, key);
    }
    return parent != null
        && parent.omitsZeroValues()
        && parent.isField(key)
        && ScalarEquality.omittableZero(child, value);
  }

  /**
   * Whether a value live holds and the target lacks is one the server would drop anyway. An empty
   * struct live holds is kept by the server (an empty label selector selects everything), so it is
   * a difference.
   */
  private static boolean omittedFromLive(
      MapSchema parent, String key, SchemaNode child, Object value) {
    if (value instanceof Map<?, ?> m && m.isEmpty()) {
      return !(child instanceof MapSchema ms && !ms.fieldNames().isEmpty());
    }
    return omitted(parent, key, child, value);
  }

  /**
   * Deep equality by the schema: lists position by position, maps key by key ({@code a} is live,
   * {@code b} the target).
   */
  static boolean same(SchemaNode schema, Object a, Object b) {
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y && !(schema instanceof ScalarSchema)) {
      MapSchema ms = schema instanceof MapSchema m ? m : null;
      for (Map.Entry<?, ?> e : x.entrySet()) {
        SchemaNode child = ms == null ? UntypedSchema.INSTANCE : ms.child((String) e.getKey());
        Object other = y.get(e.getKey());
        if (other == null
            ? !omittedFromLive(ms, (String) e.getKey(), child, e.getValue()) && e.getValue() != null
            : !same(child, e.getValue(), other)) {
          return false;
        }
      }
      for (Map.Entry<?, ?> e : y.entrySet()) {
        if (x.get(e.getKey()) == null && e.getValue() != null) {
          SchemaNode child = ms == null ? UntypedSchema.INSTANCE : ms.child((String) e.getKey());
          if (!omitted(ms, (String) e.getKey(), child, e.getValue())) {
            return false;
          }
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y && !(schema instanceof ScalarSchema)) {
      if (x.size() != y.size()) {
        return false;
      }
      SchemaNode items = schema instanceof ListSchema l ? l.items() : UntypedSchema.INSTANCE;
      for (int i = 0; i < x.size(); i++) {
        if (!same(items, x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?>
        || a instanceof List<?>
        || b instanceof Map<?, ?>
        || b instanceof List<?>) {
      return Objects.equals(a, b);
    }
    return ScalarEquality.equal(schema, a, b);
  }
}
