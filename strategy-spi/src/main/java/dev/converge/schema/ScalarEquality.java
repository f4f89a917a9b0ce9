package dev.converge.schema;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Objects;

/** Whether two scalars are the same value for the API server, by the position's type. */
public final class ScalarEquality {

  private ScalarEquality() {}

  /**
   * Equality of two scalars at a position of schema {@code schema}.
   *
   * @param schema the position's schema; a scalar schema decides how values compare, any other
   *     compares numbers by value and the rest exactly
   * @param a one value, as a tree holds it (a string, a number, a boolean), or null
   * @param b the other value, or null
   * @return whether the server would store them as the same value; two nulls are equal, a null and
   *     a value are not
   */
  public static boolean equal(SchemaNode schema, Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    ScalarType type = schema instanceof ScalarSchema s ? s.type() : null;
    if (type == ScalarType.QUANTITY) {
      return quantityEqual(a, b);
    }
    if (type == ScalarType.STRING || type == ScalarType.BOOLEAN) {
      return a.equals(b);
    }
    if (a instanceof Number x && b instanceof Number y) {
      return numbersEqual(x, y);
    }
    return a.equals(b);
  }

  private static boolean numbersEqual(Number x, Number y) {
    if ((x instanceof Integer || x instanceof Long)
        && (y instanceof Integer || y instanceof Long)) {
      return x.longValue() == y.longValue();
    }
    try {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
    } catch (NumberFormatException e) {
      return x.equals(y);
    }
  }

  private static boolean quantityEqual(Object a, Object b) {
    String x = String.valueOf(a);
    String y = String.valueOf(b);
    if (x.equals(y)) {
      return true;
    }
    try {
      return Quantity.getAmountInBytes(new Quantity(x))
              .compareTo(Quantity.getAmountInBytes(new Quantity(y)))
          == 0;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether {@code value} at a position of {@code schema} is a zero value the server may omit from
   * a built-in struct: false, 0 or "" — never an int-or-string or a quantity, which the API types
   * hold by pointer, so {@code maxUnavailable: 0} is stored.
   */
  static boolean omittableZero(SchemaNode schema, Object value) {
    if (schema instanceof ScalarSchema s
        && (s.type() == ScalarType.INT_OR_STRING || s.type() == ScalarType.QUANTITY)) {
      return false;
    }
    return isZero(value);
  }

  /** Whether {@code value} is a zero value: false, 0 or "". */
  static boolean isZero(Object value) {
    if (value instanceof Number n) {
      try {
        return new BigDecimal(n.toString()).signum() == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return Boolean.FALSE.equals(value) || Objects.equals("", value);
  }
}
