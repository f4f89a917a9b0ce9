package dev.converge.testing.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A path into an object as the API server returns it (maps, lists and scalars of its JSON form),
 * written the way people point at a field:
 *
 * <pre>
 * spec.replicas                                         a field
 * data["app.properties"]                                a map key (any characters, quoted)
 * spec.template.spec.containers[name=web].livenessProbe the list element whose name is web
 * spec.ports[name="http"].nodePort                      the same, value quoted
 * metadata.finalizers[0]                                a list element by position
 * </pre>
 *
 * The judge of the conformance kit reads live objects through such paths; it never uses the
 * comparison code of the strategies it judges.
 */
public final class FieldPath {

  /** One step of a path. */
  public sealed interface Step permits Key, Match, Index {}

  /**
   * A map key.
   *
   * @param name the key
   */
  public record Key(String name) implements Step {
    @Override
    public String toString() {
      return name.matches("[A-Za-z0-9_$-]+") ? "." + name : "[\"" + name + "\"]";
    }
  }

  /**
   * The element of a list of objects whose {@code field} equals {@code value} (as text).
   *
   * @param field the field that identifies the element, such as {@code name}
   * @param value the field's value, as text
   */
  public record Match(String field, String value) implements Step {
    @Override
    public String toString() {
      return "["
          + field
          + "="
          + (value.matches("[A-Za-z0-9_./-]+") ? value : "\"" + value + "\"")
          + "]";
    }
  }

  /**
   * A list element by position.
   *
   * @param index the position, from 0
   */
  public record Index(int index) implements Step {
    @Override
    public String toString() {
      return "[" + index + "]";
    }
  }

  private final List<Step> steps;

  private FieldPath(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  /**
   * Parses the text form.
   *
   * @param text a path such as {@code spec.template.spec.containers[name=web].image}
   * @return the path
   * @throws IllegalArgumentException naming the position of a syntax error, or for an empty path
   */
  public static FieldPath of(String text) {
    List<Step> steps = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '.') {
        i++;
        continue;
      }
      if (c == '[') {
        int close = closing(text, i);
        String inner = text.substring(i + 1, close);
        if (inner.startsWith("\"")) {
          steps.add(new Key(unquote(inner, text)));
        } else if (inner.matches("\\d+")) {
          steps.add(new Index(Integer.parseInt(inner)));
        } else if (inner.contains("=")) {
          int eq = inner.indexOf('=');
          steps.add(new Match(inner.substring(0, eq), unquote(inner.substring(eq + 1), text)));
        } else {
          throw new IllegalArgumentException(
              "field path "
                  + text
                  + ": ["
                  + inner
                  + "] at "
                  + i
                  + " is neither [\"key\"], [field=value] nor [index]");
        }
        i = close + 1;
        continue;
      }
      int end = i;
      while (end < n && text.charAt(end) != '.' && text.charAt(end) != '[') {
        end++;
      }
      steps.add(new Key(text.substring(i, end)));
      i = end;
    }
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("field path is empty");
    }
    return new FieldPath(steps);
  }

  /**
   * A path of the given steps.
   *
   * @param steps the steps, from the root; copied
   * @return the path
   */
  public static FieldPath of(List<Step> steps) {
    return new FieldPath(steps);
  }

  private static int closing(String text, int open) {
    boolean quoted = false;
    for (int j = open + 1; j < text.length(); j++) {
      char c = text.charAt(j);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ']' && !quoted) {
        return j;
      }
    }
    throw new IllegalArgumentException(
        "field path " + text + ": '[' at " + open + " is never closed");
  }

  private static String unquote(String s, String text) {
    if (s.startsWith("\"")) {
      if (s.length() < 2 || !s.endsWith("\"")) {
        throw new IllegalArgumentException("field path " + text + ": unbalanced quote in " + s);
      }
      return s.substring(1, s.length() - 1);
    }
    return s;
  }

  /**
   * The steps.
   *
   * @return the steps from the root, unmodifiable
   */
  public List<Step> steps() {
    return steps;
  }

  /**
   * This path followed by a map key.
   *
   * @param name the key
   * @return a new, longer path
   */
  public FieldPath key(String name) {
    List<Step> more = new ArrayList<>(steps);
    more.add(new Key(name));
    return new FieldPath(more);
  }

  /**
   * This path without its last step; empty for a one-step path.
   *
   * @return the parent path, or empty
   */
  public Optional<FieldPath> parent() {
    return steps.size() < 2
        ? Optional.empty()
        : Optional.of(new FieldPath(steps.subList(0, steps.size() - 1)));
  }

  /**
   * Whether {@code other} is this path or lies below it.
   *
   * @param other another path
   * @return true when this path is a prefix of {@code other}
   */
  public boolean covers(FieldPath other) {
    return other.steps.size() >= steps.size() && other.steps.subList(0, steps.size()).equals(steps);
  }

  /**
   * The value at this path in {@code tree}; empty when any step is missing.
   *
   * @param tree an object's JSON tree (maps, lists, scalars)
   * @return the value, or empty
   */
  public Optional<Object> get(Object tree) {
    Object node = tree;
    for (Step step : steps) {
      node = child(node, step);
      if (node == null) {
        return Optional.empty();
      }
    }
    return Optional.of(node);
  }

  /**
   * Sets the value at this path in a mutable tree, creating missing maps on the way and, for a
   * missing {@code [field=value]} element, appending one that holds the field.
   *
   * @param tree an object's JSON tree, changed in place
   * @param value the value to set
   * @throws IllegalArgumentException when an {@code [index]} step on the way has no element
   */
  @SuppressWarnings("unchecked")
  public void set(Map<String, Object> tree, Object value) {
    Object node = tree;
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      boolean last = i == steps.size() - 1;
      Object next = child(node, step);
      if (last) {
        if (step instanceof Key k) {
          ((Map<String, Object>) node).put(k.name(), value);
        } else if (step instanceof Index x) {
          ((List<Object>) node).set(x.index(), value);
        } else {
          List<Object> list = (List<Object>) node;
          int at = next == null ? -1 : list.indexOf(next);
          if (at < 0) {
            list.add(value);
          } else {
            list.set(at, value);
          }
        }
        return;
      }
      if (next == null) {
        Object created =
            steps.get(i + 1) instanceof Key
                ? new LinkedHashMap<String, Object>()
                : new ArrayList<>();
        if (step instanceof Key k) {
          ((Map<String, Object>) node).put(k.name(), created);
        } else if (step instanceof Match m) {
          Map<String, Object> element = new LinkedHashMap<>();
          element.put(m.field(), m.value());
          ((List<Object>) node).add(element);
          created = element;
        } else {
          throw new IllegalArgumentException(this + ": no element " + ((Index) step).index());
        }
        next = created;
      }
      node = next;
    }
  }

  /**
   * Removes the value at this path from a mutable tree.
   *
   * @param tree an object's JSON tree, changed in place
   * @return true when something was removed
   */
  public boolean remove(Map<String, Object> tree) {
    Object parent = parent().map(p -> p.get(tree).orElse(null)).orElse(tree);
    Step last = steps.get(steps.size() - 1);
    if (parent == null) {
      return false;
    }
    Object value = child(parent, last);
    if (value == null) {
      return false;
    }
    if (parent instanceof Map<?, ?> map && last instanceof Key k) {
      map.remove(k.name());
      return true;
    }
    if (parent instanceof List<?> list) {
      list.remove(list.indexOf(value));
      return true;
    }
    return false;
  }

  private static Object child(Object node, Step step) {
    if (step instanceof Key k) {
      return node instanceof Map<?, ?> map ? map.get(k.name()) : null;
    }
    if (step instanceof Index x) {
      return node instanceof List<?> list && x.index() < list.size() ? list.get(x.index()) : null;
    }
    Match m = (Match) step;
    if (!(node instanceof List<?> list)) {
      return null;
    }
    return list.stream()
        .filter(
            e ->
                e instanceof Map<?, ?> map
                    && map.get(m.field()) != null
                    && m.value().equals(String.valueOf(map.get(m.field()))))
        .findFirst()
        .orElse(null);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldPath other && steps.equals(other.steps);
  }

  @Override
  public int hashCode() {
    return Objects.hash(steps);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Step step : steps) {
      text.append(step);
    }
    return text.charAt(0) == '.' ? text.substring(1) : text.toString();
  }
}
