package dev.converge.example.desired;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.owner.DependentMetadata;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import java.util.Optional;

/**
 * The Deployment an AppDeployment asks for: same name and namespace (the reconciler's apply makes
 * the AppDeployment its controller owner), {@code spec.replicas} pods of one container named
 * {@value #CONTAINER} running {@code spec.image}, the ConfigMap as {@code envFrom}, and the
 * ConfigMap's content hash as a pod-template annotation.
 *
 * <p>Only fields the operator means to own are set; the API server's defaults (strategy,
 * revisionHistoryLimit, terminationGracePeriodSeconds, ...) are left to the server, and each
 * strategy knows to leave them alone.
 */
public final class DesiredDeployment {

  /** Name of the application container. */
  public static final String CONTAINER = "app";

  /** Name of the container port and of the Service port. */
  public static final String PORT_NAME = "http";

  private DesiredDeployment() {}

  /**
   * The Deployment an AppDeployment asks for.
   *
   * @param configHash the content hash of the referenced ConfigMap; empty when the AppDeployment
   *     references none
   */
  public static Deployment of(AppDeployment app, Optional<String> configHash) {
    AppDeploymentSpec spec = app.getSpec();
    ContainerBuilder container =
        new ContainerBuilder()
            .withName(CONTAINER)
            .withImage(spec.image())
            .addNewPort()
            .withName(PORT_NAME)
            .withContainerPort(spec.portOrDefault())
            .withProtocol("TCP")
            .endPort();
    if (spec.referencesConfigMap()) {
      container.withEnvFrom(
          new EnvFromSourceBuilder()
              .withNewConfigMapRef()
              .withName(spec.configMapName())
              .endConfigMapRef()
              .build());
    }
    return new DeploymentBuilder()
        .withMetadata(DependentMetadata.of(app, AppLabels.all(app)))
        .withNewSpec()
        .withReplicas(spec.replicasOrDefault())
        .withNewSelector()
        .withMatchLabels(AppLabels.selector(app))
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(AppLabels.all(app))
        .withAnnotations(
            configHash.map(hash -> Map.of(AppLabels.CONFIG_HASH_ANNOTATION, hash)).orElse(null))
        .endMetadata()
        .withNewSpec()
        .withContainers(container.build())
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
