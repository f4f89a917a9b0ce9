package dev.converge.reconcile;

import java.util.Objects;
import java.util.Optional;

/**
 * How {@link Context#apply(io.fabric8.kubernetes.api.model.HasMetadata, ApplyOptions)} writes one
 * object. The defaults suit nearly every object an operator manages for its primary.
 *
 * @param controllerReference whether the primary becomes the object's controller owner (garbage
 *     collection deletes the object with the primary, and its events reconcile the primary);
 *     default true
 * @param strategy the name of the strategy that writes this object; empty for the one the
 *     operator's {@link dev.converge.strategy.StrategySelection} chooses for it
 */
public record ApplyOptions(boolean controllerReference, Optional<String> strategy) {

  private static final ApplyOptions DEFAULTS = new ApplyOptions(true, Optional.empty());

  /**
   * Checks the options, so that a blank strategy name fails where it is written.
   *
   * @param controllerReference whether the primary becomes the object's controller owner
   * @param strategy the name of the strategy that writes this object; empty for the configured one
   * @throws NullPointerException when {@code strategy} is null (use empty)
   * @throws IllegalArgumentException when the strategy name is blank
   */
  public ApplyOptions {
    Objects.requireNonNull(strategy, "strategy");
    strategy.ifPresent(
        name -> {
          if (name.isBlank()) {
            throw new IllegalArgumentException("strategy name must not be blank, e.g. \"ssa\"");
          }
        });
  }

  /**
   * A controller owner reference to the primary, the configured strategy.
   *
   * @return the options {@link Context#apply(io.fabric8.kubernetes.api.model.HasMetadata)} uses
   */
  public static ApplyOptions defaults() {
    return DEFAULTS;
  }

  /**
   * No owner reference: for objects that must outlive the primary, or that it cannot own (a
   * cluster-scoped object of a namespaced primary, an object in another namespace).
   *
   * @return the defaults without the controller owner reference
   */
  public static ApplyOptions withoutOwnerReference() {
    return DEFAULTS.withOwnerReference(false);
  }

  /**
   * The given strategy for this object, whatever the selection says for its kind.
   *
   * @param name the strategy's name, such as {@code "ssa"}; it must be installed in the operator
   * @return the defaults with that strategy
   * @throws IllegalArgumentException when the name is blank
   */
  public static ApplyOptions usingStrategy(String name) {
    return DEFAULTS.withStrategy(name);
  }

  /**
   * A copy that does or does not set the controller owner reference.
   *
   * @param set whether the primary becomes the object's controller owner
   * @return a new value; this one is unchanged
   */
  public ApplyOptions withOwnerReference(boolean set) {
    return new ApplyOptions(set, strategy);
  }

  /**
   * A copy that writes with the strategy {@code name}.
   *
   * @param name the strategy's name, such as {@code "ssa"}; it must be installed in the operator
   * @return a new value; this one is unchanged
   * @throws IllegalArgumentException when the name is blank
   */
  public ApplyOptions withStrategy(String name) {
    return new ApplyOptions(controllerReference, Optional.of(name));
  }
}
