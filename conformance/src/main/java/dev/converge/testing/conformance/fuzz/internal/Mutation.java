package dev.converge.testing.conformance.fuzz.internal;

import java.util.Map;
import java.util.function.Consumer;

/**
 * One change to a desired object's JSON tree, with the text a failure report prints for it.
 *
 * @param description e.g. {@code set spec.replicas = 3}
 * @param change applies the change to a mutable tree (a no-op when its path is gone)
 */
public record Mutation(String description, Consumer<Map<String, Object>> change) {

  /** Applies the change to {@code tree}. */
  public void apply(Map<String, Object> tree) {
    change.accept(tree);
  }

  @Override
  public String toString() {
    return description;
  }
}
