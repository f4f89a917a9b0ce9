package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.testing.conformance.FieldPath;

/**
 * A change another actor makes between two applies of the strategy under test.
 *
 * @param type what kind of change
 * @param path where, as a field path (for a finalizer: {@code metadata.finalizers})
 * @param pointer where, as a JSON pointer (for JSON patches)
 * @param value the value set, or the finalizer added
 */
public record ForeignChange(Type type, FieldPath path, String pointer, Object value) {

  /** The kinds of foreign change. */
  public enum Type {
    /** A label or annotation desired does not name. */
    METADATA,
    /** A finalizer added to the set. */
    FINALIZER,
    /** A field desired does not name. */
    FIELD,
    /** A field desired names, changed (it must be restored). */
    DRIFT,
    /**
     * {@code spec.replicas} written through {@code /scale} (it must be restored while desired sets
     * it, and kept once desired stops setting it).
     */
    SCALE,
    /** A status field written through {@code /status} (it must survive every apply). */
    STATUS,
    /**
     * A field desired sets, server-side applied by another actor with the same value: both own it,
     * so it stays when desired drops it, unless desired changed it in between.
     */
    CO_APPLY
  }

  @Override
  public String toString() {
    return switch (type) {
      case METADATA, FIELD -> "another actor sets " + path + " = " + value;
      case FINALIZER -> "another actor adds finalizer " + value;
      case DRIFT -> "another actor changes " + path + " to " + value;
      case SCALE -> "another actor scales " + path + " to " + value + " through /scale";
      case STATUS -> "another actor sets " + path + " = " + value + " through /status";
      case CO_APPLY -> "another actor applies " + path + " = " + value + " too";
    };
  }
}
