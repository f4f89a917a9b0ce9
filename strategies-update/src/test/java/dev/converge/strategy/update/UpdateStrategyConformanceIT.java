package dev.converge.strategy.update;

import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.StrategyConformanceKit;

/**
 * The conformance kit on the update strategy, obtained the way an operator gets it: ServiceLoader.
 */
class UpdateStrategyConformanceIT extends StrategyConformanceKit {

  @Override
  protected ConformanceTarget target() {
    StrategySelector selector = StrategySelector.discover(StrategySelection.all("update"));
    // No declared limits: a PUT can express every change, removals included (the API server's
    // managedFields record what earlier writes of this client set).
    return ConformanceTarget.of(selector.installed().get("update"));
  }

  @Override
  protected String noPeersReason() {
    return "update→merge-patch and back run in the merge-patch row, update→ssa and back in the ssa row"
        + " (this module cannot list them as test dependencies without a module cycle)";
  }
}
