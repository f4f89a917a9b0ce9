package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.AppDeployment;
import dev.converge.crd.sample.Widget;
import dev.converge.crd.sample.Workload;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every CRD the generator produces is accepted by the real API server and becomes Established. */
@ExtendWith(LocalClusterExtension.class)
class CrdAcceptanceIT {

  private static final List<GeneratedCrd> ALL =
      CrdGenerator.generate(
          Widget.class,
          AppDeployment.class,
          CustomResourceDefinitionTest.ClusterSetting.class,
          CustomResourceDefinitionTest.Replicated.class,
          CustomResourceDefinitionTest.GadgetV1Alpha1.class,
          CustomResourceDefinitionTest.GadgetV1Beta1.class,
          CustomResourceDefinitionTest.GadgetV1.class,
          GenerationErrorsTest.LimitedTree.class,
          Workload.class);

  @AfterAll
  static void removeCrds(LocalCluster localCluster) {
    try (KubernetesClient client = localCluster.newClient()) {
      for (GeneratedCrd crd : ALL) {
        client.apiextensions().v1().customResourceDefinitions().withName(crd.name()).delete();
      }
    }
  }

  @Test
  void anEmbeddedPodTemplateKeepsItsLabels(KubernetesClient client) {
    CrdInstaller.install(client, ALL, Duration.ofSeconds(60));
    String yaml =
        """
        apiVersion: workloads.crd.converge.dev/v1
        kind: Workload
        metadata:
          name: labelled
        spec:
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
              - name: web
                image: nginx:1.27
                resources:
                  limits:
                    memory: 128Mi
                    cpu: 1
        """;
    GenericKubernetesResource workload =
        client.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    GenericKubernetesResource created =
        client
            .genericKubernetesResources("workloads.crd.converge.dev/v1", "Workload")
            .resource(workload)
            .create();
    assertThat(created.<Object>get("spec", "template", "metadata", "labels", "app"))
        .isEqualTo("web");
    assertThat(
            created.<Object>get(
                "spec", "template", "spec", "containers", 0, "resources", "limits", "cpu"))
        .isEqualTo(1);
  }

  @Test
  void everyGeneratedCrdIsEstablished(KubernetesClient client) {
    {
      CrdInstaller.install(client, ALL, Duration.ofSeconds(60));
      for (GeneratedCrd crd : ALL) {
        CustomResourceDefinition live =
            client.apiextensions().v1().customResourceDefinitions().withName(crd.name()).get();
        assertThat(CrdInstaller.established(live)).as(crd.name()).isTrue();
        assertThat(live.getSpec().getVersions())
            .extracting(v -> v.getName())
            .containsExactlyElementsOf(
                crd.definition().getSpec().getVersions().stream().map(v -> v.getName()).toList());
      }
      // The API server keeps the structural schema as generated: nothing was pruned or rewritten.
      CustomResourceDefinition widget =
          client
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .withName("widgets.widgets.crd.converge.dev")
              .get();
      assertThat(widget.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema())
          .isEqualTo(
              ALL.stream()
                  .filter(c -> c.name().equals(widget.getMetadata().getName()))
                  .findFirst()
                  .orElseThrow()
                  .definition()
                  .getSpec()
                  .getVersions()
                  .get(0)
                  .getSchema()
                  .getOpenAPIV3Schema());
    }
  }
}
