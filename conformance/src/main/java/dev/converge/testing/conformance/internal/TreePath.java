package dev.converge.testing.conformance.internal;

import java.util.List;
import java.util.Map;

/**
 * A path into a JSON tree: map keys ({@code [a.b/c]} for keys with dots), or {@code [name=X]} to
 * pick the list element whose {@code name} is X. Written
 * as dot-separated text, e.g. {@code spec.template.spec.containers.[name=app].env.[name=MODE]}.
 */
public record TreePath(List<String> segments) {

  public static TreePath of(String text) {
    return new TreePath(List.of(text.split("\\.(?![^\\[]*\\])")));
  }

  /** The value at this path, or null. */
  public Object get(Object tree) {
    Object node = tree;
    for (String segment : segments) {
      if (segment.startsWith("[") && segment.endsWith("]") && !segment.contains("=")) {
        node = node instanceof Map<?, ?> map ? map.get(segment.substring(1, segment.length() - 1)) : null;
      } else if (segment.startsWith("[") && segment.endsWith("]")) {
        String[] kv = segment.substring(1, segment.length() - 1).split("=", 2);
        if (!(node instanceof List<?> list)) {
          return null;
        }
        node = list.stream()
            .filter(e -> e instanceof Map<?, ?> m && kv[1].equals(String.valueOf(m.get(kv[0]))))
            .findFirst().orElse(null);
      } else if (node instanceof Map<?, ?> map) {
        node = map.get(segment);
      } else {
        return null;
      }
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  /** Removes the value at this path from {@code tree} (a mutable copy), if present. */
  public void remove(Object tree) {
    Object parent = new TreePath(segments.subList(0, segments.size() - 1)).get(tree);
    String last = segments.get(segments.size() - 1);
    if (parent instanceof Map<?, ?> map) {
      map.remove(last.startsWith("[") && !last.contains("=") ? last.substring(1, last.length() - 1) : last);
    } else if (parent instanceof List<?> list && last.startsWith("[")) {
      Object element = new TreePath(List.of(last)).get(list);
      list.remove(element);
    }
  }

  @Override
  public String toString() {
    return String.join(".", segments);
  }
}
