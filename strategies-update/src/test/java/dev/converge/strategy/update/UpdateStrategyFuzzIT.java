package dev.converge.strategy.update;

import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.fuzz.StrategyFuzzKit;

/**
 * The differential fuzzer on the update strategy, with the API server as the oracle. A small run in
 * every build; {@code bin/fuzz --sequences 2000} (or {@code -Dconverge.fuzz.sequences=2000}) for a
 * long one.
 */
class UpdateStrategyFuzzIT extends StrategyFuzzKit {

  @Override
  protected ResourceStrategy strategy() {
    StrategySelector selector = StrategySelector.discover(StrategySelection.all("update"));
    return selector.installed().get("update");
  }
}
