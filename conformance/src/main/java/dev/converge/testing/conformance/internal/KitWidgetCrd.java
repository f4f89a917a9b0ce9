package dev.converge.testing.conformance.internal;

import dev.converge.crd.CrdInstaller;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The kit's Widget CRD ({@link WidgetCrd}) in a group unique to one kit run, with a typed spec:
 * {@code spec.size} (integer), {@code color}, {@code mode} (immutable through a CEL rule), {@code
 * optional}, {@code extra}, and {@code replicas} which the server defaults to 1 — so the custom
 * resource too has a field desired never sets — plus the shapes whose merge semantics the schema
 * declares: {@code ports} (a list-type map keyed by name, with a defaulted {@code protocol}),
 * {@code tags} (a set), {@code steps} (an atomic list), {@code settings} (a granular map), {@code
 * limits} (an atomic map) and {@code template.containers[].env[]} (list-type maps nested in a
 * list-type map). It has a {@code /status} and a {@code /scale} subresource ({@code
 * spec.replicas}), as workload-like custom resources do.
 */
public record KitWidgetCrd(WidgetCrd definition, KubernetesClient admin) implements AutoCloseable {

  public static final String KIND = WidgetCrd.KIND;

  /**
   * Installs the CRD and waits until the API server serves it and publishes its schema (strategies
   * read list and map semantics from it).
   */
  public static KitWidgetCrd create(KubernetesClient admin) {
    String group =
        "c"
            + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT)
            + ".conformance.converge.dev";
    WidgetCrd definition =
        WidgetCrd.inGroup(group)
            .spec(spec())
            // spec.replicas through /scale, as an autoscaler or kubectl scale writes it
            .scale(".spec.replicas", ".status.replicas");
    CrdInstaller.install(admin, definition.build(), Duration.ofSeconds(60));
    return new KitWidgetCrd(definition, admin);
  }

  private static JSONSchemaProps spec() {
    JSONSchemaProps string = new JSONSchemaPropsBuilder().withType("string").build();
    return new JSONSchemaPropsBuilder()
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
  }

  public String group() {
    return definition.group();
  }

  public String apiVersion() {
    return definition.apiVersion();
  }

  /** Deletes the CRD (and with it every Widget). */
  @Override
  public void close() {
    admin.apiextensions().v1().customResourceDefinitions().withName(definition.name()).delete();
  }
}
