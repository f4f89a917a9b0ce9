package dev.converge.testing.conformance.internal;

/** The desired objects a scenario applies, in the order scenarios use them. */
public enum Variant {
  /** The starting point: includes a removable label, annotation and (per kind) field. */
  BASE,
  /** BASE with exactly one field changed (the subject's changed path). */
  CHANGED,
  /** BASE without the removable label, annotation and field. */
  WITHOUT_REMOVABLE,
  /** The object the immutable scenario starts from (BASE, or BASE marked immutable). */
  IMMUTABLE_BASE,
  /** IMMUTABLE_BASE with an immutable field changed. */
  IMMUTABLE_CHANGED
}
