package dev.converge.it;

import static org.awaitility.Awaitility.await;

import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Locale;

/**
 * Installs a namespaced test CRD for a custom resource class, with a status subresource and
 * schemaless spec and status. CRDs are cluster-wide, so every test class uses a class (and API
 * group) of its own.
 */
public final class TestCrds {

  private TestCrds() {}

  /**
   * Installs with a client of its own: a {@code KubernetesClient} parameter of a {@code @BeforeAll}
   * method would give the whole class one namespace, shared by every test method.
   */
  public static CustomResourceDefinition install(
      LocalCluster cluster, Class<? extends HasMetadata> type) {
    try (KubernetesClient client = cluster.newClient()) {
      return install(client, type);
    }
  }

  public static CustomResourceDefinition install(
      KubernetesClient client, Class<? extends HasMetadata> type) {
    String group = HasMetadata.getGroup(type);
    String kind = HasMetadata.getKind(type);
    String plural = HasMetadata.getPlural(type);
    JSONSchemaProps open =
        new JSONSchemaPropsBuilder()
            .withType("object")
            .withXKubernetesPreserveUnknownFields(true)
            .build();
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName(plural + "." + group)
            .endMetadata()
            .withNewSpec()
            .withGroup(group)
            .withScope("Namespaced")
            .withNewNames()
            .withKind(kind)
            .withPlural(plural)
            .withSingular(kind.toLowerCase(Locale.ROOT))
            .endNames()
            .addNewVersion()
            .withName(HasMetadata.getVersion(type))
            .withServed(true)
            .withStorage(true)
            .withNewSubresources()
            .withNewStatus()
            .endStatus()
            .endSubresources()
            .withNewSchema()
            .withNewOpenAPIV3Schema()
            .withType("object")
            .addToProperties("spec", open)
            .addToProperties("status", open)
            .endOpenAPIV3Schema()
            .endSchema()
            .endVersion()
            .endSpec()
            .build();
    client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              CustomResourceDefinition live =
                  client
                      .apiextensions()
                      .v1()
                      .customResourceDefinitions()
                      .withName(crd.getMetadata().getName())
                      .get();
              return live != null
                  && live.getStatus() != null
                  && live.getStatus().getConditions().stream()
                      .anyMatch(
                          c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
            });
    // The API server serves a new CRD a moment after it reports Established: wait for a list.
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> client.resources(type).inAnyNamespace().list() != null);
    return crd;
  }
}
