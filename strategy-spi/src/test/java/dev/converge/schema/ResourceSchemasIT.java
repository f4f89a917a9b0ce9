package dev.converge.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The schemas as the real API server publishes them: the list and map semantics strategies rely on,
 * and a custom resource installed after the registry first read its group.
 */
@ExtendWith(LocalClusterExtension.class)
class ResourceSchemasIT {

  private static SchemaNode at(SchemaNode node, String... path) {
    SchemaNode current = node;
    for (String step : path) {
      current =
          step.equals("[]") ? ((ListSchema) current).items() : ((MapSchema) current).child(step);
    }
    return current;
  }

  @Test
  void builtInKindsCarryTheirListAndMapSemantics(KubernetesClient client) {
    ResourceSchemas schemas = ResourceSchemas.of(client);
    SchemaNode deployment = schemas.forKind(new ApiKind("apps/v1", "Deployment"));
    SchemaNode pod = at(deployment, "spec", "template", "spec");
    assertThat(((ListSchema) at(pod, "containers")).keys()).containsExactly("name");
    assertThat(((ListSchema) at(pod, "containers", "[]", "ports")).keys())
        .containsExactly("containerPort", "protocol");
    assertThat(((MapSchema) at(pod, "containers", "[]", "ports", "[]")).defaultOf("protocol"))
        .contains("TCP");
    assertThat(((ListSchema) at(pod, "tolerations")).type()).isEqualTo(ListType.ATOMIC);
    assertThat(((ListSchema) at(pod, "volumes")).keys()).containsExactly("name");
    assertThat(at(pod, "containers", "[]", "resources", "limits", "memory"))
        .isEqualTo(ScalarSchema.QUANTITY);
    assertThat(((ListSchema) at(deployment, "metadata", "finalizers")).type())
        .isEqualTo(ListType.SET);
    assertThat(((MapSchema) at(deployment, "spec", "selector")).atomic()).isTrue();
    assertThat(((MapSchema) at(deployment, "spec", "strategy")).typeName())
        .isEqualTo("io.k8s.api.apps.v1.DeploymentStrategy");

    SchemaNode service = schemas.forKind(new ApiKind("v1", "Service"));
    assertThat(((MapSchema) at(service, "spec", "selector")).atomic()).isTrue();
    assertThat(((ListSchema) at(service, "spec", "ports")).keys())
        .containsExactly("port", "protocol");
    assertThat(at(schemas.forKind(new ApiKind("v1", "ConfigMap")), "data", "anyKey"))
        .isEqualTo(ScalarSchema.STRING);
    assertThat(
            at(
                schemas.forKind(new ApiKind("autoscaling/v2", "HorizontalPodAutoscaler")),
                "spec",
                "metrics",
                "[]"))
        .isInstanceOf(MapSchema.class);
  }

  @Test
  void aCustomResourceInstalledLaterIsReadWithItsOwnSemantics(LocalCluster cluster) {
    List<String> requests = new ArrayList<>();
    try (KubernetesClient client = cluster.newClient()) {
      ResourceSchemas schemas =
          new ResourceSchemas(
              path -> {
                requests.add(path);
                return client.raw(path);
              },
              java.time.Clock.systemUTC());
      ApiKind kind = new ApiKind("schemas.converge.dev/v1", "Layout");
      assertThat(schemas.forKind(kind)).isEqualTo(UntypedSchema.INSTANCE);

      install(client);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> schemas.forKind(kind) instanceof MapSchema);
      SchemaNode layout = schemas.forKind(kind);
      assertThat(((ListSchema) at(layout, "spec", "slots")).keys()).containsExactly("name");
      assertThat(((ListSchema) at(layout, "spec", "tags")).type()).isEqualTo(ListType.SET);
      assertThat(((MapSchema) at(layout, "spec", "selector")).atomic()).isTrue();
      assertThat(at(layout, "spec", "size")).isEqualTo(ScalarSchema.INT_OR_STRING);
      assertThat(((MapSchema) at(layout, "spec")).omitsZeroValues()).isFalse();

      int before = requests.size();
      for (int i = 0; i < 1000; i++) {
        schemas.forKind(kind);
      }
      assertThat(requests).hasSize(before);
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName("layouts.schemas.converge.dev")
          .delete();
    }
  }

  private static void install(KubernetesClient client) {
    JSONSchemaProps string = new JSONSchemaPropsBuilder().withType("string").build();
    JSONSchemaProps spec =
        new JSONSchemaPropsBuilder()
            .withType("object")
            .addToProperties(
                "slots",
                new JSONSchemaPropsBuilder()
                    .withType("array")
                    .withXKubernetesListType("map")
                    .withXKubernetesListMapKeys("name")
                    .withNewItems()
                    .withNewSchema()
                    .withType("object")
                    .withRequired("name")
                    .addToProperties("name", string)
                    .addToProperties(
                        "weight", new JSONSchemaPropsBuilder().withType("integer").build())
                    .endSchema()
                    .endItems()
                    .build())
            .addToProperties(
                "tags",
                new JSONSchemaPropsBuilder()
                    .withType("array")
                    .withXKubernetesListType("set")
                    .withNewItems()
                    .withSchema(string)
                    .endItems()
                    .build())
            .addToProperties(
                "selector",
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .withXKubernetesMapType("atomic")
                    .withAdditionalProperties(
                        new io.fabric8.kubernetes.api.model.apiextensions.v1
                                .JSONSchemaPropsOrBoolBuilder()
                            .withSchema(string)
                            .build())
                    .build())
            .addToProperties(
                "size",
                new JSONSchemaPropsBuilder()
                    .withXKubernetesIntOrString(true)
                    .withAnyOf(new JSONSchemaPropsBuilder().withType("integer").build(), string)
                    .build())
            .build();
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName("layouts.schemas.converge.dev")
            .endMetadata()
            .withNewSpec()
            .withGroup("schemas.converge.dev")
            .withScope("Namespaced")
            .withNewNames()
            .withKind("Layout")
            .withPlural("layouts")
            .withSingular("layout")
            .endNames()
            .addNewVersion()
            .withName("v1")
            .withServed(true)
            .withStorage(true)
            .withNewSchema()
            .withNewOpenAPIV3Schema()
            .withType("object")
            .addToProperties("spec", spec)
            .endOpenAPIV3Schema()
            .endSchema()
            .endVersion()
            .endSpec()
            .build();
    client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
  }
}
