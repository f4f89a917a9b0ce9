package dev.converge.strategy.patch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.DirectStrategyContext;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The SPI's delete honours the propagation policy and reports whether anything was deleted. */
@ExtendWith(LocalClusterExtension.class)
class StrategyDeleteIT {

  @Test
  void foregroundDeletionWaitsForDependentsAndASecondDeleteFindsNothing(
      KubernetesClient client, TestNamespace ns) {
    MergePatchStrategy strategy = new MergePatchStrategy();
    DirectStrategyContext context = new DirectStrategyContext(client, "delete-it");
    Deployment web =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("web")
            .withImage("nginx:1.27")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    strategy.apply(web, context);
    Awaitility.await("replica set created")
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> !client.apps().replicaSets().inNamespace(ns.name()).list().getItems().isEmpty());

    assertThat(strategy.delete(web, DeletionPropagation.FOREGROUND, context)).isTrue();

    Awaitility.await("deployment and its replica sets gone")
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                client.apps().deployments().inNamespace(ns.name()).withName("web").get() == null
                    && client
                        .apps()
                        .replicaSets()
                        .inNamespace(ns.name())
                        .list()
                        .getItems()
                        .isEmpty());
    assertThat(strategy.delete(web, DeletionPropagation.FOREGROUND, context)).isFalse();
  }
}
