package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.Map;
import java.util.Objects;

/** When an object counts as done in a run. */
public final class Rollout {

  private Rollout() {}

  /**
   * A Deployment whose controller has seen its latest spec and whose every desired pod is of the
   * current template, ready and available, with no other pod left (as {@code kubectl rollout
   * status} decides).
   */
  public static boolean complete(Deployment deployment) {
    DeploymentStatus status = deployment.getStatus();
    if (status == null
        || status.getObservedGeneration() == null
        || status.getObservedGeneration() < deployment.getMetadata().getGeneration()) {
      return false;
    }
    int desired =
        deployment.getSpec().getReplicas() == null ? 1 : deployment.getSpec().getReplicas();
    return zero(status.getUpdatedReplicas()) == desired
        && zero(status.getReplicas()) == desired
        && zero(status.getReadyReplicas()) == desired
        && zero(status.getAvailableReplicas()) == desired;
  }

  /** The pod template's annotation {@code key}, or the empty string. */
  public static String templateAnnotation(Deployment deployment, String key) {
    Map<String, String> annotations =
        deployment.getSpec().getTemplate().getMetadata() == null
            ? null
            : deployment.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null ? "" : Objects.requireNonNullElse(annotations.get(key), "");
  }

  /** An AppDeployment whose status says Running for its latest generation. */
  public static boolean running(GenericKubernetesResource app) {
    Object status = app.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map)) {
      return false;
    }
    Object observed = map.get("observedGeneration");
    return "Running".equals(map.get("phase"))
        && observed instanceof Number n
        && n.longValue() == app.getMetadata().getGeneration();
  }

  private static int zero(Integer value) {
    return value == null ? 0 : value;
  }
}
