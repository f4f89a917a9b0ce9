package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonValue;

/** An enum written by its {@code @JsonValue}. */
public enum Priority {
  LOW("low"),
  HIGH("high-priority");

  private final String wire;

  Priority(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }
}
