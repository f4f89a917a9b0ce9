package dev.converge.strategy.patch.internal;

import dev.converge.strategy.tree.Containment;
import dev.converge.strategy.tree.ResourceTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes an RFC 7386 JSON merge patch from three trees: the fields this controller applied last
 * time (a skeleton of keys, see {@link #fieldsOf}), the desired object and the live object.
 *
 * <ul>
 *   <li>a desired value live does not already hold (ignoring fields desired leaves out, which the
 *       server may have defaulted) is sent; lists are atomic and sent whole;
 *   <li>a key applied last time and missing from desired is sent as {@code null}, which deletes it;
 *   <li>keys neither applied last time nor desired — set by someone else — are not mentioned.
 * </ul>
 */
public final class ThreeWayMergePatch {

  private ThreeWayMergePatch() {}

  /** The patch; empty when live already matches. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> diff(Map<String, Object> lastFields, Map<String, Object> desired, Map<String, Object> live) {
    Map<String, Object> patch = new LinkedHashMap<>();
    desired.forEach((key, want) -> {
      if (want == null) {
        return;
      }
      Object have = live.get(key);
      if (want instanceof Map<?, ?> wantMap && have instanceof Map<?, ?> haveMap) {
        Object last = lastFields.get(key);
        Map<String, Object> sub = diff(
            last instanceof Map<?, ?> l ? (Map<String, Object>) l : Map.of(),
            (Map<String, Object>) wantMap, (Map<String, Object>) haveMap);
        if (!sub.isEmpty()) {
          patch.put(key, sub);
        }
      } else if (!Containment.contains(have, want)) {
        patch.put(key, ResourceTree.copy(want));
      }
    });
    lastFields.forEach((key, last) -> {
      if (desired.get(key) != null || !live.containsKey(key)) {
        return;
      }
      if (last instanceof Map<?, ?> lastMap && live.get(key) instanceof Map<?, ?> haveMap) {
        // Only the keys this controller applied go; keys others added to the same map stay.
        Map<String, Object> sub = diff((Map<String, Object>) lastMap, Map.of(), (Map<String, Object>) haveMap);
        if (!sub.isEmpty()) {
          patch.put(key, sub);
        }
      } else {
        patch.put(key, null);
      }
    });
    return patch;
  }

  /**
   * The key skeleton of a desired tree: maps keep their keys (recursively), every other value
   * becomes {@code 1}. Enough to know what to delete next time, without copying values — Secret data
   * in particular — into an annotation.
   */
  public static Map<String, Object> fieldsOf(Map<String, Object> desired) {
    Map<String, Object> out = new LinkedHashMap<>();
    desired.forEach((key, value) -> {
      if (value instanceof Map<?, ?> map && !map.isEmpty()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> sub = fieldsOf((Map<String, Object>) map);
        out.put(key, sub);
      } else if (value != null && !(value instanceof List<?> l && l.isEmpty())) {
        out.put(key, 1);
      }
    });
    return out;
  }
}
