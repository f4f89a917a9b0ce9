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

  /**
   * The newest known state of the object.
   *
   * @return the object, never null
   */
  T object();

  /**
   * The object appeared (including objects found by the informer's initial list).
   *
   * @param <T> the kind
   * @param object the object as created
   */
  record Created<T extends HasMetadata>(T object) implements ResourceEvent<T> {
    /**
     * Checks the object.
     *
     * @param object the object as created
     * @throws NullPointerException when {@code object} is null
     */
    public Created {
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * The object changed. A resync delivers an update whose old and new states carry the same
   * resourceVersion.
   *
   * @param <T> the kind
   * @param oldObject the state before the change
   * @param object the state after the change
   */
  record Updated<T extends HasMetadata>(T oldObject, T object) implements ResourceEvent<T> {
    /**
     * Checks both states.
     *
     * @param oldObject the state before the change
     * @param object the state after the change
     * @throws NullPointerException when {@code oldObject} or {@code object} is null
     */
    public Updated {
      Objects.requireNonNull(oldObject, "oldObject");
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * The object is gone. {@code finalStateUnknown} is true when the watch missed the deletion and
   * {@link #object()} is the last state the cache had.
   *
   * @param <T> the kind
   * @param object the last known state
   * @param finalStateUnknown whether the watch missed the deletion
   */
  record Deleted<T extends HasMetadata>(T object, boolean finalStateUnknown)
      implements ResourceEvent<T> {
    /**
     * Checks the object.
     *
     * @param object the last known state
     * @param finalStateUnknown whether the watch missed the deletion
     * @throws NullPointerException when {@code object} is null
     */
    public Deleted {
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * A trigger from outside the cluster's watch stream (a timer, an external system).
   *
   * @param <T> the kind
   * @param object the object the trigger is about
   */
  record Generic<T extends HasMetadata>(T object) implements ResourceEvent<T> {
    /**
     * Checks the object.
     *
     * @param object the object the trigger is about
     * @throws NullPointerException when {@code object} is null
     */
    public Generic {
      Objects.requireNonNull(object, "object");
    }
  }
}
