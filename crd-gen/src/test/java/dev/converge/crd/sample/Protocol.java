package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonValue;

/** An enum serialised by its {@code @JsonValue}. */
public enum Protocol {
  TCP("tcp"),
  UDP("udp");

  private final String wire;

  Protocol(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }
}
