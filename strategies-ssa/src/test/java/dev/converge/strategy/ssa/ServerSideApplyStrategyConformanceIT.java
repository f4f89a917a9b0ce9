package dev.converge.strategy.ssa;

import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.StrategyConformanceKit;
import java.util.List;

/** The conformance kit on ssa, switching to and from update and merge-patch. */
class ServerSideApplyStrategyConformanceIT extends StrategyConformanceKit {

  private final StrategySelector selector =
      StrategySelector.discover(StrategySelection.all(ServerSideApplyStrategy.NAME));

  @Override
  protected ConformanceTarget target() {
    return ConformanceTarget.of(selector.installed().get(ServerSideApplyStrategy.NAME));
  }

  @Override
  protected List<ConformanceTarget> peers() {
    return List.of(
        ConformanceTarget.of(selector.installed().get("update")),
        ConformanceTarget.of(selector.installed().get("merge-patch")));
  }
}
