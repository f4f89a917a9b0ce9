package dev.converge.schema;

import java.util.Objects;

/** A scalar position: string, number, boolean, quantity or int-or-string. */
public record ScalarSchema(ScalarType type) implements SchemaNode {

  public static final ScalarSchema STRING = new ScalarSchema(ScalarType.STRING);
  public static final ScalarSchema INTEGER = new ScalarSchema(ScalarType.INTEGER);
  public static final ScalarSchema NUMBER = new ScalarSchema(ScalarType.NUMBER);
  public static final ScalarSchema BOOLEAN = new ScalarSchema(ScalarType.BOOLEAN);
  public static final ScalarSchema QUANTITY = new ScalarSchema(ScalarType.QUANTITY);
  public static final ScalarSchema INT_OR_STRING = new ScalarSchema(ScalarType.INT_OR_STRING);

  public ScalarSchema {
    Objects.requireNonNull(type, "type");
  }
}
