package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.controller.AppDeploymentReconciler;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The ConfigMap watch: missing and then created, and changes to ConfigMaps nobody references. */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentConfigMapIT {

  @Test
  void aMissingConfigMapIsReportedAndTheAppRecoversAsSoonAsItIsCreated(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    RunningOperator operator = AppOperatorRun.start(cluster, ns.name());
    try (operator) {
      state.create("api", "nginx:1.27", 1, "api-config");

      await("ConfigResolved=False naming the ConfigMap")
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () -> {
                Condition resolved = state.condition("api", AppDeploymentStatus.CONFIG_RESOLVED);
                assertThat(resolved.getStatus()).isEqualTo("False");
                assertThat(resolved.getReason())
                    .isEqualTo(AppDeploymentReconciler.REASON_CONFIG_MAP_NOT_FOUND);
                assertThat(resolved.getMessage()).contains(ns.name() + "/api-config");
                assertThat(state.phase("api")).isEqualTo(Phase.Pending);
              });
      // No Deployment whose pods could never start; the Service is there already.
      assertThat(state.deployment("api")).isEmpty();
      assertThat(state.service("api")).isPresent();

      // The ConfigMap watch reconciles at once: well before the 30 s re-check would.
      state.putConfigMap("api-config", Map.of("MODE", "production"));
      await("Running after the ConfigMap appears, sooner than the 30 s re-check")
          .atMost(Duration.ofSeconds(AppDeploymentReconciler.MISSING_CONFIG_RECHECK_SECONDS - 10))
          .untilAsserted(
              () -> {
                assertThat(state.phase("api")).isEqualTo(Phase.Running);
                assertThat(state.condition("api", AppDeploymentStatus.CONFIG_RESOLVED).getStatus())
                    .isEqualTo("True");
              });
      assertThat(ClusterState.configHashOf(state.deployment("api").orElseThrow())).isNotBlank();
    }
  }

  @Test
  void aChangeToAConfigMapNobodyReferencesReconcilesNothing(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator operator = AppOperatorRun.start(cluster, ns.name())) {
      state.putConfigMap("used", Map.of("A", "1"));
      state.putConfigMap("unrelated", Map.of("B", "1"));
      state.create("web", "nginx:1.27", 1, "used");
      state.awaitRunning("web", 1);
      // Converged: the count stops moving (deployment status updates have all arrived).
      long[] settled = {AppOperatorRun.reconciles(operator)};
      await("reconciles settle")
          .atMost(ClusterState.CONVERGE)
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () -> {
                long now = AppOperatorRun.reconciles(operator);
                boolean same = now == settled[0];
                settled[0] = now;
                return same;
              });
      long before = AppOperatorRun.reconciles(operator);

      state.putConfigMap("unrelated", Map.of("B", "2"));
      state.putConfigMap("unrelated", Map.of("B", "3"));
      // Observed for 5 s: the index maps "unrelated" to no AppDeployment, so no reconcile runs.
      await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(7))
          .until(() -> AppOperatorRun.reconciles(operator) == before);

      // The same kind of change to the referenced ConfigMap does reconcile (the watch works).
      state.putConfigMap("used", Map.of("A", "2"));
      await("a reconcile after the referenced ConfigMap changed")
          .atMost(ClusterState.CONVERGE)
          .until(() -> AppOperatorRun.reconciles(operator) > before);
    }
  }
}
