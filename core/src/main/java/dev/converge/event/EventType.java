package dev.converge.event;

/** The {@code type} of a core/v1 Event. */
public enum EventType {
  /** Something worth knowing that needs no action, such as a dependent created. */
  NORMAL("Normal"),
  /** Something a human may have to act on, such as a spec that cannot be realised. */
  WARNING("Warning");

  private final String wireValue;

  EventType(String wireValue) {
    this.wireValue = wireValue;
  }

  /**
   * The value of the Event's {@code type} field.
   *
   * @return "Normal" or "Warning"
   */
  public String wireValue() {
    return wireValue;
  }
}
