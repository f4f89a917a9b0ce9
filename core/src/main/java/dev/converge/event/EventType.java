package dev.converge.event;

/** The {@code type} of a core/v1 Event. */
public enum EventType {
  NORMAL("Normal"),
  WARNING("Warning");

  private final String wireValue;

  EventType(String wireValue) {
    this.wireValue = wireValue;
  }

  /** "Normal" or "Warning". */
  public String wireValue() {
    return wireValue;
  }
}
