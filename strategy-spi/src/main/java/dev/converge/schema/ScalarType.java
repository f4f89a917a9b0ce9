package dev.converge.schema;

/** How a scalar is compared: what counts as the same value for the API server. */
public enum ScalarType {
  /** Compared exactly; a number-like string is still a string. */
  STRING,
  /** Compared by numeric value ({@code 1} equals {@code 1.0}). */
  INTEGER,
  /** Compared by numeric value. */
  NUMBER,
  /** Compared exactly. */
  BOOLEAN,
  /**
   * A built-in Kubernetes quantity: the server stores it in canonical form, so {@code 1000m} equals
   * {@code 1} and {@code 1Gi} equals {@code 1073741824}.
   */
  QUANTITY,
  /** An int-or-string: integers by value, strings exactly, an integer never equals a string. */
  INT_OR_STRING
}
