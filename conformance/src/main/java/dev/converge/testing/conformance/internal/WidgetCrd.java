package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import org.awaitility.Awaitility;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A small namespaced CRD in a group unique to one kit run: {@code spec.size} (integer), {@code
 * color}, {@code mode} (immutable through a CEL rule), {@code optional}, {@code extra}, and {@code
 * replicas} which the server defaults to 1 — so the custom resource too has a field desired never
 * sets — plus the shapes whose merge semantics the schema declares: {@code ports} (a list-type map
 * keyed by name, with a defaulted {@code protocol}), {@code tags} (a set), {@code steps} (an atomic
 * list), {@code settings} (a granular map), {@code limits} (an atomic map) and {@code
 * template.containers[].env[]} (list-type maps nested in a list-type map). It has a {@code /status}
 * and a {@code /scale} subresource ({@code spec.replicas}), as workload-like custom resources do.
 */
public record WidgetCrd(String group, KubernetesClient admin) implements AutoCloseable {

  public static final String KIND = "Widget";
  public static final String PLURAL = "widgets";

  /** Creates the CRD and waits until it is established. */
  public static WidgetCrd create(KubernetesClient admin) {
    String group =
        "c"
            + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT)
            + ".conformance.converge.dev";
    JSONSchemaProps string = new JSONSchemaPropsBuilder().withType("string").build();
    JSONSchemaProps spec =
        new JSONSchemaPropsBuilder()
            .withType("object")
            .addToProperties("size", new JSONSchemaPropsBuilder().withType("integer").build())
            .addToProperties(
                "replicas",
                new JSONSchemaPropsBuilder()
                    .withType("integer")
                    .withDefault(JsonNodeFactory.instance.numberNode(1))
                    .build())
            .addToProperties("color", string)
            .addToProperties(
                "mode",
                new JSONSchemaPropsBuilder()
                    .withType("string")
                    .withXKubernetesValidations(
                        new ValidationRuleBuilder()
                            .withRule("self == oldSelf")
                            .withMessage("mode is immutable")
                            .build())
                    .build())
            .addToProperties("optional", string)
            .addToProperties("extra", string)
            // a list-type map keyed by name, a set, an atomic list, a granular and an atomic map,
            // and a
            // nested list-type map inside an object: the list and map semantics the server merges
            // by
            .addToProperties(
                "ports",
                new JSONSchemaPropsBuilder()
                    .withType("array")
                    .withXKubernetesListType("map")
                    .withXKubernetesListMapKeys("name")
                    .withNewItems()
                    .withSchema(
                        new JSONSchemaPropsBuilder()
                            .withType("object")
                            .withRequired("name")
                            .addToProperties("name", string)
                            .addToProperties(
                                "port", new JSONSchemaPropsBuilder().withType("integer").build())
                            .addToProperties(
                                "protocol",
                                new JSONSchemaPropsBuilder()
                                    .withType("string")
                                    .withDefault(JsonNodeFactory.instance.stringNode("TCP"))
                                    .build())
                            .build())
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
                "steps",
                new JSONSchemaPropsBuilder()
                    .withType("array")
                    .withXKubernetesListType("atomic")
                    .withNewItems()
                    .withSchema(
                        new JSONSchemaPropsBuilder()
                            .withType("object")
                            .addToProperties("name", string)
                            .addToProperties("timeout", string)
                            .build())
                    .endItems()
                    .build())
            .addToProperties(
                "settings",
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .withNewAdditionalProperties()
                    .withSchema(string)
                    .endAdditionalProperties()
                    .build())
            .addToProperties(
                "limits",
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .withXKubernetesMapType("atomic")
                    .withNewAdditionalProperties()
                    .withSchema(string)
                    .endAdditionalProperties()
                    .build())
            .addToProperties(
                "template",
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .addToProperties(
                        "containers",
                        new JSONSchemaPropsBuilder()
                            .withType("array")
                            .withXKubernetesListType("map")
                            .withXKubernetesListMapKeys("name")
                            .withNewItems()
                            .withSchema(
                                new JSONSchemaPropsBuilder()
                                    .withType("object")
                                    .withRequired("name")
                                    .addToProperties("name", string)
                                    .addToProperties("image", string)
                                    .addToProperties(
                                        "env",
                                        new JSONSchemaPropsBuilder()
                                            .withType("array")
                                            .withXKubernetesListType("map")
                                            .withXKubernetesListMapKeys("name")
                                            .withNewItems()
                                            .withSchema(
                                                new JSONSchemaPropsBuilder()
                                                    .withType("object")
                                                    .withRequired("name")
                                                    .addToProperties("name", string)
                                                    .addToProperties("value", string)
                                                    .build())
                                            .endItems()
                                            .build())
                                    .build())
                            .endItems()
                            .build())
                    .build())
            .build();
    CustomResourceDefinition crd =
        new CustomResourceDefinitionBuilder()
            .withNewMetadata()
            .withName(PLURAL + "." + group)
            .endMetadata()
            .withNewSpec()
            .withGroup(group)
            .withScope("Namespaced")
            .withNewNames()
            .withKind(KIND)
            .withPlural(PLURAL)
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
            // spec.replicas through /scale, as an autoscaler or kubectl scale writes it
            .withNewScale()
            .withSpecReplicasPath(".spec.replicas")
            .withStatusReplicasPath(".status.replicas")
            .endScale()
            .endSubresources()
            .withNewSchema()
            .withOpenAPIV3Schema(
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .addToProperties("spec", spec)
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
    admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    Awaitility.await("CRD " + crd.getMetadata().getName() + " established")
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              CustomResourceDefinition live =
                  admin
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
    // The API server publishes a new CRD's OpenAPI schema a moment after it is established;
    // strategies read list and map semantics from it, so the kit waits for it like a user's
    // CRD installer does.
    Awaitility.await("OpenAPI schema of " + group + "/v1 " + KIND + " published")
        .atMost(Duration.ofSeconds(60))
        .until(() -> published(admin, group));
    return new WidgetCrd(group, admin);
  }

  private static boolean published(KubernetesClient admin, String group) {
    String index = admin.raw("/openapi/v3");
    if (index == null) {
      return true;
    }
    Object paths =
        admin.getKubernetesSerialization().unmarshal(index, java.util.Map.class).get("paths");
    Object entry = paths instanceof java.util.Map<?, ?> p ? p.get("apis/" + group + "/v1") : null;
    if (!(entry instanceof java.util.Map<?, ?> e)
        || !(e.get("serverRelativeURL") instanceof String url)) {
      return false;
    }
    String document = admin.raw(url);
    return document != null && document.contains("\"kind\":\"" + KIND + "\"");
  }

  public String apiVersion() {
    return group + "/v1";
  }

  /** Deletes the CRD (and with it every Widget). */
  @Override
  public void close() {
    admin.apiextensions().v1().customResourceDefinitions().withName(PLURAL + "." + group).delete();
  }
}
