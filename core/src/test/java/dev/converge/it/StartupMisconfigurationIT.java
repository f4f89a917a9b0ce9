package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorState;
import dev.converge.reconcile.Result;
import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A strategy key is checked against the kinds the API server serves when the operator starts, so
 * that a typo fails then, naming the near kind, instead of silently leaving that kind to the
 * default strategy.
 */
@ExtendWith(LocalClusterExtension.class)
class StartupMisconfigurationIT {

  private static Operator operator(KubernetesClient client, TestNamespace ns, String kindKey) {
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    return Operator.builder(client)
        .name("misconfigured-it")
        .namespace(ns.name())
        .events(EventRecorder.discarding())
        .strategies(
            new StrategySelector(
                Map.of(strategy.name(), strategy),
                StrategySelection.all(strategy.name())
                    .with(ApiKind.parse(kindKey), strategy.name())))
        .controller(ControllerBuilder.forPrimary(ConfigMap.class).build((c, ctx) -> Result.done()))
        .build();
  }

  @Test
  void aMisspeltStrategyKeyFailsAtStartNamingTheNearKind(
      KubernetesClient client, TestNamespace ns) {
    Operator operator = operator(client, ns, "apps/v1/Deploymnet");

    assertThatThrownBy(operator::start)
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("apps/v1/Deploymnet: no such kind; did you mean apps/v1/Deployment?")
        .hasMessageContaining("Fix the key");
    assertThat(operator.state()).as("nothing was started").isEqualTo(OperatorState.NEW);
    operator.stop();
  }

  @Test
  void aKindInAVersionTheServerDoesNotServeFailsToo(KubernetesClient client, TestNamespace ns) {
    Operator operator = operator(client, ns, "apps/v1beta9/Deployment");

    assertThatThrownBy(operator::start)
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining(
            "apps/v1beta9/Deployment: no such kind; did you mean apps/v1/Deployment?");
    operator.stop();
  }

  @Test
  void aServedKindTheOperatorDoesNotOwnIsAccepted(KubernetesClient client, TestNamespace ns) {
    try (Operator operator = operator(client, ns, "v1/Secret")) {
      operator.start();
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
    }
  }
}
