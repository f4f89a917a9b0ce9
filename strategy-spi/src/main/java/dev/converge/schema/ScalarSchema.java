package dev.converge.schema;

import java.util.Objects;

/**
 * A scalar position: string, number, boolean, quantity or int-or-string. The type decides what
 * counts as the same value (see {@link ScalarType}).
 *
 * @param type how values at this position are compared
 */
public record ScalarSchema(ScalarType type) implements SchemaNode {

  /** A string, compared exactly. */
  public static final ScalarSchema STRING = new ScalarSchema(ScalarType.STRING);

  /** An integer, compared by value. */
  public static final ScalarSchema INTEGER = new ScalarSchema(ScalarType.INTEGER);

  /** A number, compared by value. */
  public static final ScalarSchema NUMBER = new ScalarSchema(ScalarType.NUMBER);

  /** A boolean. */
  public static final ScalarSchema BOOLEAN = new ScalarSchema(ScalarType.BOOLEAN);

  /** A Kubernetes quantity, compared by amount ({@code 1000m} equals {@code 1}). */
  public static final ScalarSchema QUANTITY = new ScalarSchema(ScalarType.QUANTITY);

  /** An int-or-string: integers by value, strings exactly. */
  public static final ScalarSchema INT_OR_STRING = new ScalarSchema(ScalarType.INT_OR_STRING);

  /**
   * Checks the type.
   *
   * @param type how values at this position are compared
   * @throws NullPointerException if {@code type} is null
   */
  public ScalarSchema {
    Objects.requireNonNull(type, "type");
  }
}
