package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.controller.AppDeploymentReconciler;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An image reference that cannot parse: reported once, not retried, fixed by a new spec. */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentInvalidSpecIT {

  @Test
  void anUnparsableImageFailsPermanentlyWithAConditionAndAWarningAndNoRetries(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator operator = AppOperatorRun.start(cluster, ns.name())) {
      state.create("bad", "Nginx:latest", 1, null);

      await("phase Failed with Ready=False/InvalidImage")
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () -> {
                assertThat(state.phase("bad")).isEqualTo(Phase.Failed);
                var ready = state.condition("bad", AppDeploymentStatus.READY);
                assertThat(ready.getStatus()).isEqualTo("False");
                assertThat(ready.getReason())
                    .isEqualTo(AppDeploymentReconciler.REASON_INVALID_IMAGE);
                assertThat(ready.getMessage())
                    .contains("spec.image")
                    .contains("Nginx:latest")
                    .contains("lower-case");
              });
      await("a Warning event on the AppDeployment")
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(() -> assertThat(warnings(admin, ns.name(), "bad")).isNotEmpty());
      assertThat(state.deployment("bad")).isEmpty();

      // No retry storm: nothing more happens until the spec changes.
      long reconciles = AppOperatorRun.reconciles(operator);
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(7))
          .until(() -> AppOperatorRun.reconciles(operator) == reconciles);
      assertThat(warnings(admin, ns.name(), "bad"))
          .singleElement()
          .satisfies(e -> assertThat(e.getCount() == null ? 1 : e.getCount()).isEqualTo(1));

      // A corrected spec (a new generation) is reconciled and runs.
      state.editSpec(
          "bad",
          spec ->
              new AppDeploymentSpec(
                  "nginx:latest", spec.replicas(), spec.configMapName(), spec.port()));
      state.awaitRunning("bad", 1);
    }
  }

  private static List<Event> warnings(KubernetesClient admin, String namespace, String name) {
    return admin.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> "Warning".equals(e.getType()))
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> AppDeploymentReconciler.REASON_INVALID_IMAGE.equals(e.getReason()))
        .toList();
  }
}
