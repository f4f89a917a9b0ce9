package com.example.replace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.strategy.ssa.ServerSideApplyStrategy;
import org.junit.jupiter.api.Test;

/** A plugin jar outside the framework is found by ServiceLoader and selected by configuration. */
class CustomStrategyDiscoveryTest {

  @Test
  void configurationSelectsTheCustomStrategyForOneKindAndTheDefaultForOthers() {
    StrategySelector selector =
        StrategySelector.discover(
            StrategySelection.parse(
                "default=ssa, v1/ConfigMap=dry-run-replace, apps/v1/Deployment=update"));

    assertThat(selector.installed())
        .containsKeys("update", "merge-patch", "ssa", "dry-run-replace");
    assertThat(selector.forKind(new ApiKind("v1", "ConfigMap")))
        .isInstanceOf(DryRunReplaceStrategy.class);
    assertThat(selector.forKind(ApiKind.parse("apps/v1/Deployment")).name()).isEqualTo("update");
    assertThat(selector.forKind(ApiKind.parse("v1/Secret")))
        .isInstanceOf(ServerSideApplyStrategy.class);
  }

  @Test
  void anUnknownNameFailsListingWhatWasFound() {
    assertThatThrownBy(
            () ->
                StrategySelector.discover(
                    StrategySelection.parse("apps/v1/Deployment=dry-run-replac")))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'dry-run-replac' (for apps/v1/Deployment)")
        .hasMessageContaining("[create-only, dry-run-replace, merge-patch, ssa, update]");
  }
}
