package dev.converge.status;

import java.util.Optional;

/** The three values of a condition's {@code status} field, as the API conventions spell them. */
public enum ConditionStatus {
  /** The condition holds ({@code "True"}). */
  TRUE("True"),
  /** The condition does not hold ({@code "False"}). */
  FALSE("False"),
  /** The controller cannot tell whether the condition holds ({@code "Unknown"}). */
  UNKNOWN("Unknown");

  private final String wireValue;

  ConditionStatus(String wireValue) {
    this.wireValue = wireValue;
  }

  /**
   * The value as the API server stores it in a condition's {@code status} field.
   *
   * @return "True", "False" or "Unknown"
   */
  public String wireValue() {
    return wireValue;
  }

  /**
   * Parses the wire value, as read from a stored condition; case matters ({@code "true"} is not a
   * valid status).
   *
   * @param value {@code "True"}, {@code "False"} or {@code "Unknown"}; may be null
   * @return the status, or empty for anything else (including null)
   */
  public static Optional<ConditionStatus> parse(String value) {
    for (ConditionStatus s : values()) {
      if (s.wireValue.equals(value)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /**
   * The status of a condition computed as a boolean, so a reconciler writes {@code
   * ConditionStatus.of(ready)} instead of a conditional.
   *
   * @param value whether the condition holds
   * @return {@link #TRUE} or {@link #FALSE}; never {@link #UNKNOWN}
   */
  public static ConditionStatus of(boolean value) {
    return value ? TRUE : FALSE;
  }
}
