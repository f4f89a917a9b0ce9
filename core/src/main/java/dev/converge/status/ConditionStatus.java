package dev.converge.status;

import java.util.Optional;

/** The three values of a condition's {@code status} field, as the API conventions spell them. */
public enum ConditionStatus {
  TRUE("True"),
  FALSE("False"),
  UNKNOWN("Unknown");

  private final String wireValue;

  ConditionStatus(String wireValue) {
    this.wireValue = wireValue;
  }

  /** "True", "False" or "Unknown". */
  public String wireValue() {
    return wireValue;
  }

  /** Parses the wire value; anything else (including null) is empty. */
  public static Optional<ConditionStatus> parse(String value) {
    for (ConditionStatus s : values()) {
      if (s.wireValue.equals(value)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  public static ConditionStatus of(boolean value) {
    return value ? TRUE : FALSE;
  }
}
