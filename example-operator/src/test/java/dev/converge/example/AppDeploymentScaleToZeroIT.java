package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.Phase;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code replicas: 0} is accepted by the API server's schema and means what it means for a
 * Deployment: the Deployment and Service exist, no pod runs, and the AppDeployment is Running.
 * Scaling back up brings the pods.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentScaleToZeroIT {

  @Test
  void replicasZeroKeepsDeploymentAndServiceWithoutPods(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    RunningOperator operator = AppOperatorRun.start(cluster, ns.name());
    try (operator) {
      AppDeployment created = state.create("idle", "nginx:1.27", 0, null);
      assertThat(created.getSpec().replicas()).as("replicas as the server stored it").isZero();

      AppDeployment running = state.awaitRunning("idle", 0);
      Deployment deployment = state.deployment("idle").orElseThrow();
      Service service = state.service("idle").orElseThrow();
      assertThat(deployment.getSpec().getReplicas()).isZero();
      assertThat(service.getSpec().getClusterIP()).isNotBlank();
      assertThat(running.getStatus().readyReplicas()).isZero();

      state.editSpec(
          "idle",
          spec -> new AppDeploymentSpec(spec.image(), 2, spec.configMapName(), spec.port()));
      state.awaitRunning("idle", 2);

      state.editSpec(
          "idle",
          spec -> new AppDeploymentSpec(spec.image(), 0, spec.configMapName(), spec.port()));
      state.awaitRunning("idle", 0);
      await("pods of idle gone")
          .atMost(ClusterState.CONVERGE)
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(() -> assertThat(state.pods("idle")).isEmpty());
      assertThat(state.phase("idle")).isEqualTo(Phase.Running);
    }
  }
}
