package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.AppLabels;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads and waits on the cluster as a user would with kubectl; shared by the ITs. */
final class ClusterState {

  static final Duration CONVERGE = Duration.ofSeconds(60);

  private final KubernetesClient client;
  private final String namespace;

  ClusterState(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  AppDeployment create(String name, String image, int replicas, String configMap) {
    return client
        .resources(AppDeployment.class)
        .inNamespace(namespace)
        .resource(
            AppDeployment.of(
                namespace, name, new AppDeploymentSpec(image, replicas, configMap, null)))
        .create();
  }

  ConfigMap putConfigMap(String name, Map<String, String> data) {
    return client
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withData(data)
                .build())
        .serverSideApply();
  }

  AppDeployment app(String name) {
    return client.resources(AppDeployment.class).inNamespace(namespace).withName(name).get();
  }

  AppDeployment editSpec(String name, java.util.function.UnaryOperator<AppDeploymentSpec> change) {
    return client
        .resources(AppDeployment.class)
        .inNamespace(namespace)
        .withName(name)
        .edit(
            app -> {
              app.setSpec(change.apply(app.getSpec()));
              return app;
            });
  }

  Optional<Deployment> deployment(String name) {
    return Optional.ofNullable(
        client.apps().deployments().inNamespace(namespace).withName(name).get());
  }

  Optional<Service> service(String name) {
    return Optional.ofNullable(client.services().inNamespace(namespace).withName(name).get());
  }

  List<Pod> pods(String name) {
    return client
        .pods()
        .inNamespace(namespace)
        .withLabel(AppLabels.INSTANCE, name)
        .list()
        .getItems();
  }

  List<ReplicaSet> replicaSets(String name) {
    return client
        .apps()
        .replicaSets()
        .inNamespace(namespace)
        .withLabel(AppLabels.INSTANCE, name)
        .list()
        .getItems();
  }

  /** Waits for phase Running with every pod of the current template Ready and status current. */
  AppDeployment awaitRunning(String name, int replicas) {
    await("AppDeployment " + namespace + "/" + name + " Running with " + replicas + " ready pods")
        .atMost(CONVERGE)
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              AppDeployment app = app(name);
              AppDeploymentStatus status = app.getStatus();
              assertThat(status).as("status").isNotNull();
              assertThat(status.observedGeneration()).isEqualTo(app.getMetadata().getGeneration());
              assertThat(status.phase()).isEqualTo(Phase.Running);
              assertThat(status.readyReplicas()).isEqualTo(replicas);
              assertThat(Conditions.isTrue(status.conditions(), AppDeploymentStatus.READY))
                  .isTrue();
              assertThat(
                      Conditions.isTrue(status.conditions(), AppDeploymentStatus.CONFIG_RESOLVED))
                  .isTrue();
              List<Pod> running =
                  pods(name).stream()
                      .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                      .toList();
              assertThat(running)
                  .hasSize(replicas)
                  .allSatisfy(pod -> assertThat(isReady(pod)).isTrue());
            });
    return app(name);
  }

  /** The phase, or null while the operator has written no status yet. */
  Phase phase(String name) {
    AppDeployment app = app(name);
    return app == null || app.getStatus() == null ? null : app.getStatus().phase();
  }

  Condition condition(String name, String type) {
    AppDeployment app = app(name);
    return Conditions.find(app.getStatus() == null ? List.of() : app.getStatus().conditions(), type)
        .orElseThrow(() -> new AssertionError("no condition " + type + " on " + name));
  }

  static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  static String configHashOf(Deployment deployment) {
    Map<String, String> annotations =
        deployment.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(AppLabels.CONFIG_HASH_ANNOTATION);
  }
}
