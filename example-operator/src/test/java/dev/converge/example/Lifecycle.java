package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.desired.DesiredDeployment;
import dev.converge.owner.OwnerReferences;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;

/**
 * The whole life of one AppDeployment, checked step by step as a user would see it: create, scale
 * and change the image, change the port, change the ConfigMap, someone scales the Deployment by
 * hand, delete. Run by several ITs with different strategies and identities.
 */
final class Lifecycle {

  private Lifecycle() {}

  static void run(KubernetesClient admin, String namespace, RunningOperator operator) {
    ClusterState cluster = new ClusterState(admin, namespace);

    // Create: Deployment, Service and pods, phase Running, status of the current generation.
    cluster.putConfigMap("web-config", Map.of("GREETING", "hello"));
    AppDeployment created = cluster.create("web", "nginx:1.27", 2, "web-config");
    AppDeployment running = cluster.awaitRunning("web", 2);
    Deployment deployment = cluster.deployment("web").orElseThrow();
    Service service = cluster.service("web").orElseThrow();
    assertThat(OwnerReferences.isControlledBy(deployment, running)).isTrue();
    assertThat(OwnerReferences.isControlledBy(service, running)).isTrue();
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnvFrom())
        .singleElement()
        .satisfies(e -> assertThat(e.getConfigMapRef().getName()).isEqualTo("web-config"));
    String clusterIp = service.getSpec().getClusterIP();
    assertThat(clusterIp).as("allocated clusterIP").isNotBlank().isNotEqualTo("None");
    assertThat(running.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());

    // Scale and change the image: the Deployment follows; the Service keeps its clusterIP.
    cluster.editSpec(
        "web", spec -> new AppDeploymentSpec("nginx:1.28", 3, spec.configMapName(), spec.port()));
    cluster.awaitRunning("web", 3);
    deployment = cluster.deployment("web").orElseThrow();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.28");
    assertThat(cluster.service("web").orElseThrow().getSpec().getClusterIP()).isEqualTo(clusterIp);

    // Change the port: the Service is updated in place, still on the same clusterIP.
    cluster.editSpec(
        "web",
        spec -> new AppDeploymentSpec(spec.image(), spec.replicas(), spec.configMapName(), 9090));
    await("Service port 9090")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () -> {
              Service updated = cluster.service("web").orElseThrow();
              assertThat(updated.getSpec().getPorts())
                  .singleElement()
                  .satisfies(p -> assertThat(p.getPort()).isEqualTo(9090));
              assertThat(updated.getSpec().getClusterIP()).isEqualTo(clusterIp);
            });
    cluster.awaitRunning("web", 3);

    // Change the ConfigMap: new hash in the pod template, a new ReplicaSet rolls out.
    Deployment beforeRoll = cluster.deployment("web").orElseThrow();
    String hashBefore = ClusterState.configHashOf(beforeRoll);
    List<String> replicaSetsBefore = names(cluster.replicaSets("web"));
    cluster.putConfigMap("web-config", Map.of("GREETING", "bonjour"));
    await("a new config hash in the pod template")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () ->
                assertThat(ClusterState.configHashOf(cluster.deployment("web").orElseThrow()))
                    .isNotNull()
                    .isNotEqualTo(hashBefore));
    String hashAfter = ClusterState.configHashOf(cluster.deployment("web").orElseThrow());
    await("a new ReplicaSet with the new hash, fully ready")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () -> {
              List<ReplicaSet> sets = cluster.replicaSets("web");
              ReplicaSet newest =
                  sets.stream()
                      .filter(rs -> !replicaSetsBefore.contains(rs.getMetadata().getName()))
                      .filter(
                          rs ->
                              hashAfter.equals(
                                  rs.getSpec()
                                      .getTemplate()
                                      .getMetadata()
                                      .getAnnotations()
                                      .get(
                                          dev.converge.example.desired.AppLabels
                                              .CONFIG_HASH_ANNOTATION)))
                      .findFirst()
                      .orElseThrow(
                          () -> new AssertionError("no new ReplicaSet yet: " + names(sets)));
              assertThat(newest.getStatus())
                  .as("status of " + newest.getMetadata().getName())
                  .isNotNull();
              assertThat(newest.getStatus().getReadyReplicas()).isEqualTo(3);
            });
    cluster.awaitRunning("web", 3);
    assertThat(cluster.service("web").orElseThrow().getSpec().getClusterIP()).isEqualTo(clusterIp);

    // Someone scales the managed Deployment by hand: the operator puts it back.
    // As `kubectl edit` or `kubectl patch` would: a merge patch under a manager of its own.
    Deployment edited =
        admin
            .apps()
            .deployments()
            .inNamespace(namespace)
            .withName("web")
            .patch(
                new PatchContext.Builder()
                    .withPatchType(PatchType.JSON_MERGE)
                    .withFieldManager("kubectl-edit")
                    .build(),
                "{\"spec\":{\"replicas\":1}}");
    assertThat(edited.getSpec().getReplicas()).as("the hand edit as stored").isEqualTo(1);
    await("replicas restored to 3")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () ->
                assertThat(cluster.deployment("web").orElseThrow().getSpec().getReplicas())
                    .isEqualTo(3));
    cluster.awaitRunning("web", 3);
    assertThat(
            cluster
                .deployment("web")
                .orElseThrow()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getName())
        .isEqualTo(DesiredDeployment.CONTAINER);

    // Delete: the garbage collector removes the Deployment and the Service; the operator deletes
    // nothing itself.
    admin.resources(AppDeployment.class).inNamespace(namespace).withName("web").delete();
    await("Deployment and Service garbage-collected")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () -> {
              assertThat(cluster.deployment("web")).isEmpty();
              assertThat(cluster.service("web")).isEmpty();
            });
    assertThat(operator.writes()).noneMatch(w -> w.startsWith("DELETE"));
  }

  private static List<String> names(List<ReplicaSet> sets) {
    return sets.stream().map(rs -> rs.getMetadata().getName()).toList();
  }
}
