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
    DRIFT
  }

  @Override
  public String toString() {
    return switch (type) {
      case METADATA, FIELD -> "another actor sets " + path + " = " + value;
      case FINALIZER -> "another actor adds finalizer " + value;
      case DRIFT -> "another actor changes " + path + " to " + value;
    };
  }
}
