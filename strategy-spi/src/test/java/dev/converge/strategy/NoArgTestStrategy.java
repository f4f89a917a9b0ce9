package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** A strategy as a plugin jar would ship it: public, no-argument constructor, a services entry. */
public final class NoArgTestStrategy implements ResourceStrategy {

  @Override
  public String name() {
    return "no-arg-test";
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    return ApplyResult.unchanged(desired);
  }
}
