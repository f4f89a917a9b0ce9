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

  public ApplyOptions {
    Objects.requireNonNull(strategy, "strategy");
    strategy.ifPresent(
        name -> {
          if (name.isBlank()) {
            throw new IllegalArgumentException("strategy name must not be blank, e.g. \"ssa\"");
          }
        });
  }

  /** A controller owner reference to the primary, the configured strategy. */
  public static ApplyOptions defaults() {
    return DEFAULTS;
  }

  /**
   * No owner reference: for objects that must outlive the primary, or that it cannot own (a
   * cluster-scoped object of a namespaced primary, an object in another namespace).
   */
  public static ApplyOptions withoutOwnerReference() {
    return DEFAULTS.withOwnerReference(false);
  }

  /** The given strategy for this object, whatever the selection says for its kind. */
  public static ApplyOptions usingStrategy(String name) {
    return DEFAULTS.withStrategy(name);
  }

  /** A copy that does or does not set the controller owner reference. */
  public ApplyOptions withOwnerReference(boolean set) {
    return new ApplyOptions(set, strategy);
  }

  /** A copy that writes with the strategy {@code name}. */
  public ApplyOptions withStrategy(String name) {
    return new ApplyOptions(controllerReference, Optional.of(name));
  }
}
