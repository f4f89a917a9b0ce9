package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.AppDeployment;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The kubebuilder markers of the AppDeployment sample map one to one onto Converge's annotations.
 */
class AppDeploymentSchemaTest {

  private final JsonNode crd = SchemaTrees.crd(AppDeployment.class);
  private final JsonNode spec = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
  private final JsonNode status =
      crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status");

  @Test
  void imageIsRequiredAndConfigMapNameOptional() {
    assertThat(SchemaTrees.texts(spec.get("required"))).containsExactly("image");
    assertThat(spec.at("/properties/image/type").asString()).isEqualTo("string");
    assertThat(spec.at("/properties/configMapName/type").asString()).isEqualTo("string");
  }

  @Test
  void specIsRequiredBecauseItHasRequiredFields() {
    assertThat(SchemaTrees.texts(crd.at("/spec/versions/0/schema/openAPIV3Schema/required")))
        .containsExactly("spec");
  }

  @Test
  void replicasHasMinimumOneAndDefaultOne() {
    JsonNode replicas = spec.at("/properties/replicas");
    assertThat(replicas.get("type").asString()).isEqualTo("integer");
    assertThat(replicas.get("format").asString()).isEqualTo("int32");
    assertThat(replicas.get("minimum").asDouble()).isEqualTo(1.0);
    assertThat(replicas.get("default").asInt()).isEqualTo(1);
    assertThat(spec.at("/properties/port/default").asInt()).isEqualTo(8080);
  }

  @Test
  void statusIsASubresourceWithTheSeedsFields() {
    assertThat(crd.at("/spec/versions/0/subresources/status").isObject()).isTrue();
    assertThat(status.get("properties").propertyNames())
        .containsExactlyInAnyOrder("readyReplicas", "phase", "conditions", "observedGeneration");
    assertThat(status.at("/properties/observedGeneration/format").asString()).isEqualTo("int64");
    assertThat(status.at("/properties/conditions/items/properties/type/type").asString())
        .isEqualTo("string");
  }

  @Test
  void printerColumnsAreImageReplicasReadyPhaseAge() {
    JsonNode columns = crd.at("/spec/versions/0/additionalPrinterColumns");
    assertThat(columns.valueStream().map(c -> c.get("name").asString()).toList())
        .containsExactly("Image", "Replicas", "Ready", "Phase", "Age");
    assertThat(columns.valueStream().map(c -> c.get("jsonPath").asString()).toList())
        .containsExactly(
            ".spec.image",
            ".spec.replicas",
            ".status.readyReplicas",
            ".status.phase",
            ".metadata.creationTimestamp");
    assertThat(columns.get(4).get("type").asString()).isEqualTo("date");
  }

  @Test
  void namesScopeAndShortName() {
    assertThat(crd.at("/metadata/name").asString())
        .isEqualTo("appdeployments.sample.crd.converge.dev");
    assertThat(crd.at("/spec/scope").asString()).isEqualTo("Namespaced");
    assertThat(crd.at("/spec/names/kind").asString()).isEqualTo("AppDeployment");
    assertThat(SchemaTrees.texts(crd.at("/spec/names/shortNames"))).isEqualTo(List.of("appdep"));
    SchemaTrees.assertStructural(
        crd.at("/spec/versions/0/schema/openAPIV3Schema"), "AppDeployment");
  }
}
