package dev.converge.example;

import dev.converge.operator.OperatorBuilder;
import dev.converge.strategy.StrategySelection;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Create, scale, change image, port and ConfigMap, hand edit, delete — with the default strategy
 * choice and with others, since which strategy writes which kind is configuration.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentLifecycleIT {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "apps/v1/Deployment=ssa, v1/Service=update",
        "apps/v1/Deployment=update, v1/Service=merge-patch",
        "apps/v1/Deployment=merge-patch, v1/Service=ssa"
      })
  void wholeLifecycle(
      String strategies, KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    String namespace = ns.name();
    Consumer<OperatorBuilder> settings = b -> b.strategies(StrategySelection.parse(strategies));
    try (RunningOperator operator = AppOperatorRun.start(cluster, namespace, settings)) {
      Lifecycle.run(admin, ns.name(), operator);
    }
  }
}
