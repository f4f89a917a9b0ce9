package dev.converge.status;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;

/**
 * A small namespaced CRD "Widget" with a status subresource, in a group of the caller's choice (one
 * group per test class, so test classes never share a definition). Spec and status keep unknown
 * fields, so test types may put anything there.
 */
public final class WidgetCrd {

  private WidgetCrd() {}

  /**
   * Creates (or keeps) {@code widgets.<group>} with version v1 and waits until it is established.
   */
  public static CustomResourceDefinition install(KubernetesClient client, String group) {
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName("widgets." + group)
            .endMetadata()
            .withNewSpec()
            .withGroup(group)
            .withScope("Namespaced")
            .withNewNames()
            .withKind("Widget")
            .withPlural("widgets")
            .withSingular("widget")
            .withListKind("WidgetList")
            .endNames()
            .addNewVersion()
            .withName("v1")
            .withServed(true)
            .withStorage(true)
            .withNewSubresources()
            .withNewStatus()
            .endStatus()
            .endSubresources()
            .withNewSchema()
            .withOpenAPIV3Schema(
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .addToProperties(
                        "spec",
                        new JSONSchemaPropsBuilder()
                            .withType("object")
                            .withXKubernetesPreserveUnknownFields(true)
                            .build())
                    .addToProperties(
                        "status",
                        new JSONSchemaPropsBuilder()
                            .withType("object")
                            .withXKubernetesPreserveUnknownFields(true)
                            .build())
                    .build())
            .endSchema()
            .endVersion()
            .endSpec()
            .build();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd)
        .createOr(NonDeletingOperation::update);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              CustomResourceDefinition live =
                  client
                      .apiextensions()
                      .v1()
                      .customResourceDefinitions()
                      .withName("widgets." + group)
                      .get();
              return live != null
                  && live.getStatus() != null
                  && live.getStatus().getConditions() != null
                  && live.getStatus().getConditions().stream()
                      .anyMatch(
                          c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
            });
    return crd;
  }

  public static void uninstall(KubernetesClient client, String group) {
    client.apiextensions().v1().customResourceDefinitions().withName("widgets." + group).delete();
  }
}
