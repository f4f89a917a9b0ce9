package dev.converge.testing.conformance;

import dev.converge.testing.conformance.internal.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One thing a user would check on a live object, by path, against a value written out by hand:
 *
 * <pre>{@code
 * Expectation.equal("data[\"version\"]", "1.10")
 * Expectation.absent("spec.template.spec.containers[name=web].livenessProbe")
 * Expectation.contains("metadata.finalizers", "example.com/ours", "other.example/guard")
 * }</pre>
 *
 * Values are compared as JSON: strings exactly (no number or quantity parsing), numbers by value,
 * maps by their keys, lists in order. {@link #id()} names the expectation in reports and in
 * declared limits.
 */
public sealed interface Expectation {

  /**
   * The path checked.
   *
   * @return the path into the live object
   */
  FieldPath path();

  /**
   * Checks the live object.
   *
   * @param live the live object as a JSON tree (maps, lists, scalars)
   * @return the mismatch, described with the value live holds; empty when live meets the
   *     expectation
   */
  Optional<String> check(Map<String, Object> live);

  /**
   * The text that names this expectation, e.g. {@code data["k"] = "1.10"}: what a declared limit
   * refers to.
   *
   * @return the name, stable across runs
   */
  String id();

  /**
   * The value at {@code path} equals {@code value} exactly.
   *
   * @param path a path in the syntax of {@link FieldPath#of}
   * @param value the expected value: a string, number, boolean, null, map or list
   * @return the expectation
   */
  static Expectation equal(String path, Object value) {
    return new Equal(FieldPath.of(path), value);
  }

  /**
   * Nothing at {@code path}.
   *
   * @param path a path in the syntax of {@link FieldPath#of}
   * @return the expectation
   */
  static Expectation absent(String path) {
    return new Absent(FieldPath.of(path));
  }

  /**
   * Something at {@code path}, other than {@code not} (for example an allocated IP, not "").
   *
   * @param path a path in the syntax of {@link FieldPath#of}
   * @param not the value live must not hold there
   * @return the expectation
   */
  static Expectation presentOtherThan(String path, Object not) {
    return new PresentOtherThan(FieldPath.of(path), not);
  }

  /**
   * The list at {@code path} holds each of {@code elements}, in any order, among others.
   *
   * @param path a path in the syntax of {@link FieldPath#of}
   * @param elements the elements the list must hold
   * @return the expectation
   */
  static Expectation contains(String path, Object... elements) {
    return new Contains(FieldPath.of(path), List.of(elements));
  }

  /**
   * The list at {@code path} holds none of {@code elements} (it may be absent).
   *
   * @param path a path in the syntax of {@link FieldPath#of}
   * @param elements the elements the list must not hold
   * @return the expectation
   */
  static Expectation lacks(String path, Object... elements) {
    return new Lacks(FieldPath.of(path), List.of(elements));
  }

  /**
   * See {@link Expectation#equal}.
   *
   * @param path the path checked
   * @param value the expected value
   */
  record Equal(FieldPath path, Object value) implements Expectation {
    @Override
    public Optional<String> check(Map<String, Object> live) {
      Object have = path.get(live).orElse(null);
      return JsonValue.equal(have, value)
          ? Optional.empty()
          : Optional.of(
              path
                  + ": expected "
                  + JsonValue.text(value)
                  + ", live holds "
                  + JsonValue.text(have));
    }

    @Override
    public String id() {
      return path + " = " + JsonValue.text(value, 80);
    }
  }

  /**
   * See {@link Expectation#absent}.
   *
   * @param path the path checked
   */
  record Absent(FieldPath path) implements Expectation {
    @Override
    public Optional<String> check(Map<String, Object> live) {
      return path.get(live).map(v -> path + ": expected absent, live holds " + JsonValue.text(v));
    }

    @Override
    public String id() {
      return path + " absent";
    }
  }

  /**
   * See {@link Expectation#presentOtherThan}.
   *
   * @param path the path checked
   * @param not the value live must not hold
   */
  record PresentOtherThan(FieldPath path, Object not) implements Expectation {
    @Override
    public Optional<String> check(Map<String, Object> live) {
      Optional<Object> have = path.get(live);
      if (have.isEmpty()) {
        return Optional.of(path + ": expected a value, live holds none");
      }
      return JsonValue.equal(have.get(), not)
          ? Optional.of(
              path + ": expected a value other than " + JsonValue.text(not) + ", live holds it")
          : Optional.empty();
    }

    @Override
    public String id() {
      return path + " present, not " + JsonValue.text(not, 40);
    }
  }

  /**
   * See {@link Expectation#contains}.
   *
   * @param path the path checked
   * @param elements the elements the list must hold
   */
  record Contains(FieldPath path, List<Object> elements) implements Expectation {
    /**
     * Copies the elements.
     *
     * @param path the path checked
     * @param elements the elements the list must hold
     */
    public Contains {
      elements = List.copyOf(elements);
    }

    @Override
    public Optional<String> check(Map<String, Object> live) {
      Object have = path.get(live).orElse(null);
      List<?> list = have instanceof List<?> l ? l : List.of();
      List<Object> missing =
          elements.stream()
              .filter(e -> list.stream().noneMatch(x -> JsonValue.equal(x, e)))
              .toList();
      return missing.isEmpty()
          ? Optional.empty()
          : Optional.of(
              path
                  + ": expected to hold "
                  + JsonValue.text(missing)
                  + ", live holds "
                  + JsonValue.text(have));
    }

    @Override
    public String id() {
      return path + " contains " + JsonValue.text(elements, 80);
    }
  }

  /**
   * See {@link Expectation#lacks}.
   *
   * @param path the path checked
   * @param elements the elements the list must not hold
   */
  record Lacks(FieldPath path, List<Object> elements) implements Expectation {
    /**
     * Copies the elements.
     *
     * @param path the path checked
     * @param elements the elements the list must not hold
     */
    public Lacks {
      elements = List.copyOf(elements);
    }

    @Override
    public Optional<String> check(Map<String, Object> live) {
      Object have = path.get(live).orElse(null);
      List<?> list = have instanceof List<?> l ? l : List.of();
      List<Object> present =
          elements.stream()
              .filter(e -> list.stream().anyMatch(x -> JsonValue.equal(x, e)))
              .toList();
      return present.isEmpty()
          ? Optional.empty()
          : Optional.of(
              path
                  + ": expected not to hold "
                  + JsonValue.text(present)
                  + ", live holds "
                  + JsonValue.text(have));
    }

    @Override
    public String id() {
      return path + " lacks " + JsonValue.text(elements, 80);
    }
  }
}
