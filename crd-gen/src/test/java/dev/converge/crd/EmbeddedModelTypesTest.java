package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.internal.KubernetesModelSemantics;
import dev.converge.crd.sample.Workload;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.batch.v1beta1.CronJobSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A fabric8 model type inside a spec carries what the API server declares for the built-in type:
 * list types and keys, map types, required fields, defaults and formats (from the bundled capture).
 */
class EmbeddedModelTypesTest {

  private static JsonNode podSpec() {
    return SchemaTrees.spec(Workload.class, "template").at("/properties/spec");
  }

  @Test
  void listsOfThePodSpecAreListMapsWithTheirKeys() {
    JsonNode pod = podSpec();
    assertThat(pod.at("/properties/containers/x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(texts(pod.at("/properties/containers/x-kubernetes-list-map-keys")))
        .containsExactly("name");
    JsonNode container = pod.at("/properties/containers/items");
    assertThat(texts(container.get("required"))).contains("name");
    assertThat(texts(container.at("/properties/ports/x-kubernetes-list-map-keys")))
        .containsExactly("containerPort", "protocol");
    assertThat(container.at("/properties/ports/items/properties/protocol/default").asString())
        .isEqualTo("TCP");
    assertThat(container.at("/properties/env/x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(texts(container.at("/properties/volumeMounts/x-kubernetes-list-map-keys")))
        .containsExactly("mountPath");
    assertThat(pod.at("/properties/nodeSelector/x-kubernetes-map-type").asString())
        .isEqualTo("atomic");
    assertThat(pod.at("/properties/tolerations/x-kubernetes-list-type").asString())
        .isEqualTo("atomic");
  }

  @Test
  void goZeroDefaultsStayOutExceptOnOptionalListMapKeys() {
    JsonNode pod = podSpec();
    assertThat(pod.at("/properties/containers/items/properties/name").has("default"))
        .as("a required container name is never filled in as \"\"")
        .isFalse();
    assertThat(pod.at("/properties/imagePullSecrets/items/properties/name/default").asString())
        .as("an optional list-map key needs its default")
        .isEmpty();
  }

  @Test
  void aRequiredListThatFabric8LeavesOutWhenEmptyNeedsAnItem() {
    JsonNode pod = podSpec();
    assertThat(texts(pod.get("required"))).contains("containers");
    assertThat(pod.at("/properties/containers/minItems").asInt()).isEqualTo(1);
  }

  @Test
  void theCaptureMapsClassesOfServedVersionsOnly() {
    KubernetesModelSemantics semantics = KubernetesModelSemantics.bundled();
    assertThat(semantics.kubernetesVersion()).isEqualTo("v1.37.2");
    assertThat(semantics.of(Container.class))
        .hasValueSatisfying(
            type -> assertThat(type.definition()).isEqualTo("io.k8s.api.core.v1.Container"));
    assertThat(semantics.of(DeploymentSpec.class))
        .hasValueSatisfying(
            type -> assertThat(type.definition()).isEqualTo("io.k8s.api.apps.v1.DeploymentSpec"));
    assertThat(semantics.of(CronJobSpec.class)).as("batch/v1beta1 is no longer served").isEmpty();
    assertThat(semantics.size()).isGreaterThan(300);
  }
}
