package dev.converge.predicate;

import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * A predicate with one rule per event type, the counterpart of controller-runtime's {@code
 * predicate.Funcs}. Types without a rule pass.
 *
 * @param <T> the kind
 */
public final class CustomPredicate<T extends HasMetadata> implements EventPredicate<T> {

  private final Predicate<T> onCreate;
  private final BiPredicate<T, T> onUpdate;
  private final Predicate<T> onDelete;
  private final Predicate<T> onGeneric;

  private CustomPredicate(Builder<T> b) {
    this.onCreate = b.onCreate;
    this.onUpdate = b.onUpdate;
    this.onDelete = b.onDelete;
    this.onGeneric = b.onGeneric;
  }

  @Override
  public boolean test(ResourceEvent<? extends T> event) {
    if (event instanceof ResourceEvent.Created<? extends T> e) {
      return onCreate.test(e.object());
    } else if (event instanceof ResourceEvent.Updated<? extends T> e) {
      return onUpdate.test(e.oldObject(), e.object());
    } else if (event instanceof ResourceEvent.Deleted<? extends T> e) {
      return onDelete.test(e.object());
    } else if (event instanceof ResourceEvent.Generic<? extends T> e) {
      return onGeneric.test(e.object());
    }
    throw new IllegalStateException("unknown event type " + event.getClass().getName());
  }

  /**
   * Collects the per-type rules; start one with {@link EventPredicate#custom()}. Each setter
   * replaces the rule set before it for that event type.
   *
   * @param <T> the kind
   */
  public static final class Builder<T extends HasMetadata> {
    private Predicate<T> onCreate = o -> true;
    private BiPredicate<T, T> onUpdate = (a, b) -> true;
    private Predicate<T> onDelete = o -> true;
    private Predicate<T> onGeneric = o -> true;

    Builder() {}

    /**
     * The rule for an object that appeared in the cache (created, or seen at the informer's first
     * list).
     *
     * @param rule true lets the event through
     * @return this builder
     */
    public Builder<T> onCreate(Predicate<T> rule) {
      this.onCreate = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * The rule for a changed object; it gets the old state first, then the new one.
     *
     * @param rule true lets the event through
     * @return this builder
     */
    public Builder<T> onUpdate(BiPredicate<T, T> rule) {
      this.onUpdate = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * The rule for an object gone from the cache; it gets the last state the informer saw.
     *
     * @param rule true lets the event through
     * @return this builder
     */
    public Builder<T> onDelete(Predicate<T> rule) {
      this.onDelete = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * The rule for a generic event: a trigger from outside the cluster's watch stream (a timer, an
     * external system), not a change of the object.
     *
     * @param rule true lets the event through
     * @return this builder
     */
    public Builder<T> onGeneric(Predicate<T> rule) {
      this.onGeneric = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * Makes the predicate; the builder may be changed and built again afterwards without changing
     * it.
     *
     * @return a predicate with the rules set so far
     */
    public CustomPredicate<T> build() {
      return new CustomPredicate<>(this);
    }
  }
}
