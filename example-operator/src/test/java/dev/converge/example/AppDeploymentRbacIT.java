package dev.converge.example;

import dev.converge.testing.operator.RunningOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.controller.AppDeploymentReconciler;
import dev.converge.operator.LeaderElection;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.TestCrds;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator authorized only as its ServiceAccount with the shipped ClusterRole (impersonation:
 * the API server applies exactly that account's RBAC rules) does its whole job, and is refused
 * what the role does not grant.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentRbacIT {

  static final String SA_NAMESPACE = "app-operator";
  static final String SA = "system:serviceaccount:" + SA_NAMESPACE + ":app-operator";
  static final String[] SA_GROUPS = {
      "system:serviceaccounts", "system:serviceaccounts:" + SA_NAMESPACE, "system:authenticated"};

  @Test
  void theShippedClusterRoleIsEnoughForEverything(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator operator = AppOperatorRun.startAs(
        cluster, OperatorSettings.defaults().withNamespace(ns.name()), SA, SA_GROUPS)) {
      Lifecycle.run(admin, ns.name(), operator);

      // Missing ConfigMap, then created: read access to ConfigMaps suffices.
      state.create("late", "nginx:1.27", 1, "late-config");
      await().atMost(ClusterState.CONVERGE).untilAsserted(() ->
          assertThat(state.condition("late", AppDeploymentStatus.CONFIG_RESOLVED).getReason())
              .isEqualTo(AppDeploymentReconciler.REASON_CONFIG_MAP_NOT_FOUND));
      state.putConfigMap("late-config", Map.of("X", "1"));
      state.awaitRunning("late", 1);

      // A permanent failure records a Warning event: events may be created.
      state.create("broken", "UPPER/case", 1, null);
      await().atMost(ClusterState.CONVERGE).untilAsserted(() -> {
        assertThat(state.phase("broken")).isEqualTo(Phase.Failed);
        assertThat(admin.v1().events().inNamespace(ns.name()).list().getItems())
            .anyMatch(e -> "broken".equals(e.getInvolvedObject().getName())
                && "Warning".equals(e.getType()));
      });
    }
  }

  @Test
  void whatTheRoleDoesNotGrantIsRefused(KubernetesClient admin, TestNamespace ns, LocalCluster cluster)
      throws IOException {
    applyShippedRbac(admin);
    TestCrds.installOnce(cluster, AppDeployment.class);
    new ClusterState(admin, ns.name()).create("web", "nginx:1.27", 1, null);

    try (KubernetesClient asOperator = cluster.clientAs(SA, SA_GROUPS)) {
      // RBAC is checked before existence: refused requests fail with 403 whether or not the
      // object exists. What it may do, for contrast:
      assertThat(asOperator.resources(AppDeployment.class).inNamespace(ns.name()).list().getItems())
          .hasSize(1);

      assertForbidden(() -> asOperator.apps().deployments().inNamespace(ns.name()).withName("web").delete());
      assertForbidden(() -> asOperator.configMaps().inNamespace(ns.name()).resource(new ConfigMapBuilder()
          .withNewMetadata().withName("nope").endMetadata().build()).create());
      assertForbidden(() -> asOperator.secrets().inNamespace(ns.name()).list());
      assertForbidden(() -> asOperator.pods().inNamespace(ns.name()).list());
      assertForbidden(() -> asOperator.resources(AppDeployment.class).inNamespace(ns.name())
          .withName("web").delete());
      assertForbidden(() -> asOperator.apiextensions().v1().customResourceDefinitions()
          .withName(AppDeployment.CRD_NAME).edit(crd -> {
            crd.getMetadata().setLabels(Map.of("touched", "true"));
            return crd;
          }));
      assertForbidden(() -> asOperator.rbac().clusterRoles().withName("app-operator").edit(role -> {
        role.getMetadata().setLabels(Map.of("escalate", "true"));
        return role;
      }));
    }
  }

  @Test
  void withLeaderElectionTheShippedRoleCoversTheLease(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    String lease = "app-operator-" + ns.name().hashCode();
    OperatorSettings settings = OperatorSettings.defaults().withNamespace(ns.name())
        .withLeaderElection(LeaderElection.onLease(SA_NAMESPACE, lease));
    try (RunningOperator operator = AppOperatorRun.startAs(cluster, settings, SA, SA_GROUPS)) {
      await("leader").atMost(ClusterState.CONVERGE).until(() -> operator.operator().isReconciling());
      assertThat(admin.leases().inNamespace(SA_NAMESPACE).withName(lease).get().getSpec().getHolderIdentity())
          .isNotBlank();
      ClusterState state = new ClusterState(admin, ns.name());
      state.create("elected", "nginx:1.27", 1, null);
      state.awaitRunning("elected", 1);
    }
  }

  private static void assertForbidden(ThrowingCallable call) {
    assertThatThrownBy(call::call)
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
  }

  @FunctionalInterface
  interface ThrowingCallable {
    Object call() throws Exception;
  }

  /**
   * Applies target/deploy/00..30 (namespace, ServiceAccount, and the ClusterRole, Role and
   * bindings generated from the operator by the build) as shipped.
   */
  static void applyShippedRbac(KubernetesClient admin) throws IOException {
    for (String file : List.of("00-namespace.yaml", "10-serviceaccount.yaml", "20-clusterrole.yaml",
        "30-role-leader-election.yaml")) {
      try (InputStream in = Files.newInputStream(Path.of("target", "deploy", file))) {
        for (HasMetadata item : admin.load(in).items()) {
          admin.resource(item).fieldManager("rbac-it").forceConflicts().serverSideApply();
        }
      }
    }
  }
}
