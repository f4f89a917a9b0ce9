package dev.converge.example.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GeneratedCrd;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import org.junit.jupiter.api.Test;

class AppDeploymentCrdTest {

  private final GeneratedCrd crd =
      CrdGenerator.generate(AppDeployment.class, dev.converge.example.api.v2.AppDeploymentV2.class)
          .get(0);
  private final CustomResourceDefinition definition = crd.definition();
  private final CustomResourceDefinitionVersion v1 = definition.getSpec().getVersions().get(0);

  @Test
  void namesAndScope() {
    assertThat(crd.name()).isEqualTo(AppDeployment.CRD_NAME);
    assertThat(definition.getSpec().getGroup()).isEqualTo("apps.converge.dev");
    assertThat(definition.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(definition.getSpec().getNames().getKind()).isEqualTo("AppDeployment");
    assertThat(definition.getSpec().getNames().getShortNames()).containsExactly("appdep");
    assertThat(v1.getName()).isEqualTo("v1");
    assertThat(v1.getSubresources().getStatus()).isNotNull();
  }

  @Test
  void specSchemaRequiresTheImageAndDefaultsReplicasAndPort() {
    JSONSchemaProps spec = v1.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    assertThat(spec.getRequired()).contains("image");
    JSONSchemaProps replicas = spec.getProperties().get("replicas");
    assertThat(replicas.getType()).isEqualTo("integer");
    assertThat(replicas.getMinimum()).as("scale to zero is allowed").isEqualTo(0.0);
    assertThat(replicas.getDefault().asInt()).isEqualTo(1);
    assertThat(spec.getProperties().get("port").getDefault().asInt()).isEqualTo(8080);
    assertThat(spec.getProperties().get("configMapName").getType()).isEqualTo("string");
  }

  @Test
  void statusSchemaHasPhaseEnumAndConditions() {
    JSONSchemaProps status = v1.getSchema().getOpenAPIV3Schema().getProperties().get("status");
    assertThat(status.getProperties())
        .containsKeys("readyReplicas", "phase", "conditions", "observedGeneration");
    assertThat(status.getProperties().get("phase").getEnum())
        .extracting(node -> node.asString())
        .containsExactlyInAnyOrder("Pending", "Running", "Failed");
  }

  @Test
  void printerColumnsShowImageReplicasReadyPhaseAge() {
    assertThat(v1.getAdditionalPrinterColumns())
        .extracting(c -> c.getName() + " " + c.getJsonPath())
        .containsExactlyElementsOf(
            List.of(
                "Image .spec.image",
                "Replicas .spec.replicas",
                "Ready .status.readyReplicas",
                "Phase .status.phase",
                "Age .metadata.creationTimestamp"));
  }

  @Test
  void v2IsDeclaredButServedOnlyOnceTheConversionWebhookIsConfigured() {
    assertThat(crd.definition().getSpec().getVersions())
        .extracting(v -> v.getName() + " served=" + v.getServed() + " storage=" + v.getStorage())
        .containsExactly("v1 served=true storage=true", "v2 served=false storage=false");
    assertThat(crd.warnings()).isEmpty();
  }

  @Test
  void theBuildBundledTheSameCrdInTheJar() {
    assertThat(AppDeploymentCrdTest.class.getClassLoader().getResource(AppDeploymentCrd.RESOURCE))
        .as("CRD written by the process-classes build step")
        .isNotNull();
    assertThat(AppDeploymentCrd.yaml()).isEqualTo(crd.yaml());
  }
}
