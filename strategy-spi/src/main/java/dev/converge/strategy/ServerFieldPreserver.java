package dev.converge.strategy;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceTree;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Teaches strategies that write whole objects (the update strategy) which fields of one kind the
 * API server assigns or defaults and must survive a write whose desired object leaves them empty —
 * for example a Service's {@code spec.clusterIP} or a custom resource's defaulted {@code
 * spec.shard}.
 *
 * <p>Found with {@link java.util.ServiceLoader}: list implementations in {@code
 * META-INF/services/dev.converge.strategy.ServerFieldPreserver}. Objects are given as JSON trees
 * ({@code Map}/{@code List}/scalars) so that one preserver works for typed and generic resources.
 */
public interface ServerFieldPreserver {

  /**
   * True when this preserver knows fields of {@code kind}.
   *
   * @param kind the kind about to be written
   * @return whether {@link #preserve} should be called for its objects
   */
  boolean appliesTo(ApiKind kind);

  /**
   * Copies server-assigned values from {@code live} into {@code outgoing} wherever {@code outgoing}
   * leaves them unset; must not change anything {@code outgoing} sets explicitly.
   *
   * @param live the object as the server returned it (read only)
   * @param outgoing the object about to be written (mutable)
   */
  void preserve(Map<String, Object> live, Map<String, Object> outgoing);

  /**
   * The usual body of {@link #preserve}: copies the value at {@code path} (e.g. {@code "spec",
   * "clusterIP"}) from {@code live} into {@code outgoing} when {@code outgoing} leaves it unset —
   * absent, {@code ""}, {@code 0} or an empty list — and {@code live} has one. Maps missing on the
   * way in {@code outgoing} are created.
   *
   * @param live the object as the server returned it; not changed
   * @param outgoing the object about to be written; changed in place
   * @param path the keys from the root to the field, at least one
   */
  static void keepIfUnset(Map<String, Object> live, Map<String, Object> outgoing, String... path) {
    String[] parent = Arrays.copyOf(path, path.length - 1);
    String field = path[path.length - 1];
    Object liveValue = ResourceTree.mapAt(live, parent).map(m -> m.get(field)).orElse(null);
    if (isUnset(liveValue)) {
      return;
    }
    Map<String, Object> target = ResourceTree.mapAtOrCreate(outgoing, parent);
    if (isUnset(target.get(field))) {
      target.put(field, ResourceTree.copy(liveValue));
    }
  }

  /**
   * Whether a desired value leaves a field to the server: absent, empty string, zero, empty list.
   *
   * @param value a value of a tree, or null
   * @return true for null, {@code ""}, any number equal to zero and an empty list
   */
  static boolean isUnset(Object value) {
    return value == null
        || (value instanceof String s && s.isEmpty())
        || (value instanceof Number n && n.doubleValue() == 0)
        || (value instanceof List<?> l && l.isEmpty());
  }
}
