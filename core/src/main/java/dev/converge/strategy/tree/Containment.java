package dev.converge.strategy.tree;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Decides whether live already holds everything desired asks for. Only the fields desired sets are
 * looked at, so fields the API server defaulted (or another actor added to a map) never count as a
 * difference; lists are atomic (same length, element by element), numbers compare by value, and
 * strings that are both Kubernetes quantities compare by amount ({@code 1000m} equals {@code 1}).
 * A field live lacks holds a desired {@code false}, {@code 0} or {@code ""}: built-in kinds omit
 * such zero values when they store an object ({@code omitempty}), so {@code paused: false} in
 * desired must not look like drift forever.
 */
public final class Containment {

  private Containment() {}

  /** True when every field set in {@code desired} has an equal value in {@code live}. */
  public static boolean contains(Object live, Object desired) {
    if (desired == null) {
      return true;
    }
    if (desired instanceof Map<?, ?> want) {
      if (live == null) {
        return want.values().stream().allMatch(v -> contains(null, v));
      }
      if (!(live instanceof Map<?, ?> have)) {
        return false;
      }
      for (Map.Entry<?, ?> e : want.entrySet()) {
        if (!contains(have.get(e.getKey()), e.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof List<?> want) {
      if (live == null) {
        return want.isEmpty();
      }
      if (!(live instanceof List<?> have) || have.size() != want.size()) {
        return false;
      }
      for (int i = 0; i < want.size(); i++) {
        if (!contains(have.get(i), want.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (live == null) {
      return isZeroValue(desired);
    }
    return scalarEquals(live, desired);
  }

  private static boolean isZeroValue(Object v) {
    return Boolean.FALSE.equals(v)
        || "".equals(v)
        || (v instanceof Number n && new BigDecimal(n.toString()).signum() == 0);
  }

  /** Equality of two scalars as the API server treats them. */
  public static boolean scalarEquals(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
    }
    if (a.equals(b)) {
      return true;
    }
    if (a instanceof String x && b instanceof String y && looksLikeQuantity(x) && looksLikeQuantity(y)) {
      try {
        return Quantity.getAmountInBytes(new Quantity(x)).compareTo(Quantity.getAmountInBytes(new Quantity(y))) == 0;
      } catch (IllegalArgumentException | ArithmeticException e) {
        return false;
      }
    }
    return false;
  }

  private static boolean looksLikeQuantity(String s) {
    return s.matches("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+|[numkMGTPE]|[KMGTPE]i)?");
  }
}
