package dev.converge.strategy.update;

import com.google.inject.Guice;
import dev.converge.strategy.StrategiesModule;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.Scenario;
import dev.converge.testing.conformance.StrategyConformanceKit;

/** The conformance kit on the update strategy, obtained the way an operator gets it: ServiceLoader + Guice. */
class UpdateStrategyConformanceIT extends StrategyConformanceKit {

  @Override
  protected ConformanceTarget target() {
    StrategySelector selector = Guice.createInjector(new StrategiesModule(StrategySelection.all("update")))
        .getInstance(StrategySelector.class);
    return ConformanceTarget.of(selector.installed().get("update"))
        .withLimit(Scenario.REMOVAL, "update keeps no record of what it wrote before, so a map key dropped from"
            + " desired (a label, an annotation, a ConfigMap key) cannot be told from one another actor added and"
            + " is kept; dropped list elements are removed. Use merge-patch or ssa where removals matter.");
  }

  @Override
  protected String noPeersReason() {
    return "update→merge-patch and back run in the merge-patch row, update→ssa and back in the ssa row"
        + " (this module cannot list them as test dependencies without a module cycle)";
  }
}
