package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.strategy.ssa.ServerSideApplyStrategy;
import dev.converge.strategy.update.UpdateStrategy;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import org.junit.jupiter.api.Test;

/**
 * The operator is wired with Guice, but the strategy jars on its class path are found without it
 * too, as {@code OperatorBuilder.strategies(StrategySelection)} finds them.
 */
class StrategyDiscoveryWithoutGuiceTest {

  @Test
  void theThreeShippedStrategiesAreFoundAndChosenPerObject() {
    StrategySelector selector =
        StrategySelector.discover(
            StrategySelection.parse("default=ssa, apps/v1/Deployment=ssa, v1/Service=update")
                .with(StrategySelection.parse("v1/Service[name=*-metrics]=ssa").rules().get(0)));

    assertThat(selector.installed()).containsKeys("update", "merge-patch", "ssa");
    assertThat(
            selector.forResource(
                new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().build()))
        .isInstanceOf(ServerSideApplyStrategy.class);
    assertThat(
            selector.forResource(
                new ServiceBuilder().withNewMetadata().withName("web").endMetadata().build()))
        .isInstanceOf(UpdateStrategy.class);
    assertThat(
            selector.forResource(
                new ServiceBuilder()
                    .withNewMetadata()
                    .withName("web-metrics")
                    .endMetadata()
                    .build()))
        .isInstanceOf(ServerSideApplyStrategy.class);
  }
}
