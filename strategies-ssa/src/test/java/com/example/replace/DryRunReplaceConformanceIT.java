package com.example.replace;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.conformance.ConformanceCase;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.Scenario;
import dev.converge.testing.conformance.StrategyConformanceKit;

/**
 * The extension path end to end: a strategy from this test source set, discovered through its
 * META-INF/services entry, chosen by configuration, run through the same kit.
 */
class DryRunReplaceConformanceIT extends StrategyConformanceKit {

  private static final String REPLACES =
      "a replace (PUT) of the whole object outside labels and annotations:"
          + " fields, list elements and finalizers another actor set there are overwritten";
  private static final String KEEPS_METADATA =
      "keeps live labels and annotations it cannot tell apart from its"
          + " own, so dropped ones stay";

  @Override
  protected ConformanceTarget target() {
    StrategySelector selector =
        StrategySelector.discover(
            StrategySelection.parse("default=ssa, v1/ConfigMap=dry-run-replace"));
    return ConformanceTarget.of(selector.forKind(new ApiKind("v1", "ConfigMap")))
        .withLimit(Scenario.FOREIGN, "foreign-field-kept", REPLACES)
        .withLimit(Scenario.REMOVAL, "label-annotation-removed", KEEPS_METADATA)
        .withLimit(ConformanceCase.FOREIGN_FINALIZER, "no-write-for-foreign-finalizer", REPLACES)
        .withLimit(
            ConformanceCase.FOREIGN_FINALIZER,
            "metadata.finalizers contains [\"example.com/ours\",\"other.example/guard\"]",
            REPLACES)
        .withLimit(ConformanceCase.CUSTOM_RESOURCE_LISTS, "foreign-list-element-kept", REPLACES)
        .withLimit(ConformanceCase.CUSTOM_RESOURCE_LISTS, "foreign-set-element-kept", REPLACES)
        .withLimit(ConformanceCase.REALISTIC_ROUND_TRIP, "foreign-data-kept", REPLACES)
        .withLimit(
            ConformanceCase.REALISTIC_ROUND_TRIP,
            "accepted",
            "a replace (PUT) sends only desired's fields, so one the server generated on create"
                + " and keeps immutable (a Job's selector) is refused")
        .withLimit(
            ConformanceCase.REALISTIC_ROUND_TRIP,
            "dropped-label-or-annotation-stayed",
            KEEPS_METADATA)
        .withLimit(ConformanceCase.SUBRESOURCE_OWNER, "spec.replicas = 3", REPLACES)
        .withLimit(ConformanceCase.CO_OWNED_VALUES, "spec.replicas = 3", REPLACES)
        .withLimit(
            ConformanceCase.CO_OWNED_VALUES, "spec.tags contains [\"blue\",\"green\"]", REPLACES)
        .withLimit(ConformanceCase.CO_OWNED_VALUES, "spec.ports[name=http].port = 80", REPLACES);
  }

  @Override
  protected String noPeersReason() {
    return "switching is not claimed for this example strategy";
  }
}
