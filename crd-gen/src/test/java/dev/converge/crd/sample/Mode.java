package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonProperty;

/** An enum serialised by its {@code @JsonProperty} names. */
public enum Mode {
  @JsonProperty("fast")
  FAST,
  @JsonProperty("safe")
  SAFE
}
