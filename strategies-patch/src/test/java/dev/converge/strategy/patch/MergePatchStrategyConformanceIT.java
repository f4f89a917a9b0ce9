package dev.converge.strategy.patch;

import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.ConformanceCase;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.StrategyConformanceKit;
import java.util.List;

/** The conformance kit on merge-patch, with update as the peer for switching. */
class MergePatchStrategyConformanceIT extends StrategyConformanceKit {

  private final StrategySelector selector =
      StrategySelector.discover(StrategySelection.all(MergePatchStrategy.NAME));

  @Override
  protected ConformanceTarget target() {
    String wholeLists =
        "JSON merge patch (RFC 7386) has no way to address one element of a list: a list this"
            + " controller sets is sent whole, so an element another actor added to that list is replaced";
    return ConformanceTarget.of(selector.installed().get(MergePatchStrategy.NAME))
        .withLimit(ConformanceCase.CUSTOM_RESOURCE_LISTS, "foreign-list-element-kept", wholeLists)
        .withLimit(ConformanceCase.CUSTOM_RESOURCE_LISTS, "foreign-set-element-kept", wholeLists);
  }

  @Override
  protected List<ConformanceTarget> peers() {
    return List.of(ConformanceTarget.of(selector.installed().get("update")));
  }
}
