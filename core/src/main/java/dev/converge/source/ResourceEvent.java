package dev.converge.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * One change of one object, as an informer (or a generic trigger) delivered it. Predicates and
 * event handlers receive these; the four kinds match the four methods of a controller-runtime
 * predicate.
 *
 * <p>The objects are the informer's own cache entries, handed over without a copy because every
 * event passes through predicates and handlers: treat them as read-only. Changing one corrupts the
 * cache that later reads and predicates see.
 *
 * @param <T> the kind
 */
public sealed interface ResourceEvent<T extends HasMetadata> {

  /** The newest known state of the object. */
  T object();

  /** The object appeared (including objects found by the informer's initial list). */
  record Created<T extends HasMetadata>(T object) implements ResourceEvent<T> {
    public Created {
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * The object changed. A resync delivers an update whose old and new states carry the same
   * resourceVersion.
   */
  record Updated<T extends HasMetadata>(T oldObject, T object) implements ResourceEvent<T> {
    public Updated {
      Objects.requireNonNull(oldObject, "oldObject");
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * The object is gone. {@code finalStateUnknown} is true when the watch missed the deletion and
   * {@link #object()} is the last state the cache had.
   */
  record Deleted<T extends HasMetadata>(T object, boolean finalStateUnknown)
      implements ResourceEvent<T> {
    public Deleted {
      Objects.requireNonNull(object, "object");
    }
  }

  /** A trigger from outside the cluster's watch stream (a timer, an external system). */
  record Generic<T extends HasMetadata>(T object) implements ResourceEvent<T> {
    public Generic {
      Objects.requireNonNull(object, "object");
    }
  }
}
