package dev.converge.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The key of a map-list element: its values of the list's key fields, a missing key field taking
 * the field's declared default (a container port without {@code protocol} is the {@code TCP} one),
 * as the server identifies elements.
 */
final class ListKeys {

  private ListKeys() {}

  /** The key values of {@code element}; empty when it has none of the key fields. */
  static Optional<Map<String, Object>> of(ListSchema list, Map<?, ?> element) {
    Map<String, Object> keys = new LinkedHashMap<>();
    SchemaNode items = list.items();
    boolean any = false;
    for (String field : list.keys()) {
      Object value = element.get(field);
      if (value != null) {
        any = true;
      } else if (items instanceof MapSchema map) {
        value = map.defaultOf(field).orElse(null);
      }
      if (value != null) {
        keys.put(field, value);
      }
    }
    return any ? Optional.of(keys) : Optional.empty();
  }

  /** Whether two key maps name the same element. */
  static boolean same(Map<String, Object> a, Map<String, Object> b) {
    return CanonicalJson.of(a).equals(CanonicalJson.of(b));
  }
}
