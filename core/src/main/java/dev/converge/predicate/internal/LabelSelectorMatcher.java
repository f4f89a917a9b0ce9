package dev.converge.predicate.internal;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Evaluates a Kubernetes {@link LabelSelector} against a label map, as the API server does. */
public final class LabelSelectorMatcher {

  private final List<Predicate<Map<String, String>>> requirements;

  private LabelSelectorMatcher(List<Predicate<Map<String, String>>> requirements) {
    this.requirements = requirements;
  }

  public static LabelSelectorMatcher of(LabelSelector selector) {
    List<Predicate<Map<String, String>>> reqs = new ArrayList<>();
    if (selector != null) {
      if (selector.getMatchLabels() != null) {
        selector.getMatchLabels().forEach((k, v) -> reqs.add(labels -> v.equals(labels.get(k))));
      }
      if (selector.getMatchExpressions() != null) {
        for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
          reqs.add(requirement(r));
        }
      }
    }
    return new LabelSelectorMatcher(List.copyOf(reqs));
  }

  public boolean matches(Map<String, String> labels) {
    Map<String, String> actual = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(r -> r.test(actual));
  }

  private static Predicate<Map<String, String>> requirement(LabelSelectorRequirement r) {
    String key = r.getKey();
    String op = r.getOperator();
    Set<String> values = r.getValues() == null ? Set.of() : Set.copyOf(r.getValues());
    if (key == null || key.isEmpty() || op == null) {
      throw new IllegalArgumentException(
          "label selector requirement needs a key and an operator, got " + r);
    }
    switch (op) {
      case "In" -> {
        requireValues(r, values, true);
        return labels -> labels.containsKey(key) && values.contains(labels.get(key));
      }
      case "NotIn" -> {
        requireValues(r, values, true);
        return labels -> !labels.containsKey(key) || !values.contains(labels.get(key));
      }
      case "Exists" -> {
        requireValues(r, values, false);
        return labels -> labels.containsKey(key);
      }
      case "DoesNotExist" -> {
        requireValues(r, values, false);
        return labels -> !labels.containsKey(key);
      }
      default ->
          throw new IllegalArgumentException(
              "label selector operator '"
                  + op
                  + "' for key '"
                  + key
                  + "' is unknown; use In, NotIn, Exists or DoesNotExist");
    }
  }

  private static void requireValues(LabelSelectorRequirement r, Set<String> values, boolean some) {
    if (some && values.isEmpty()) {
      throw new IllegalArgumentException(
          "label selector operator "
              + r.getOperator()
              + " for key '"
              + r.getKey()
              + "' needs at least one value");
    }
    if (!some && !values.isEmpty()) {
      throw new IllegalArgumentException(
          "label selector operator "
              + r.getOperator()
              + " for key '"
              + r.getKey()
              + "' takes no values, got "
              + values);
    }
  }
}
