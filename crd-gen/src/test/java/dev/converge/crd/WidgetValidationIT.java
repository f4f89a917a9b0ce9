package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.sample.Widget;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real API server enforces the generated schema: each kind of validation rejects a violating
 * Widget with the schema's message, defaults are filled in, unknown fields are pruned except where
 * preserved.
 */
@ExtendWith(LocalClusterExtension.class)
class WidgetValidationIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final List<GeneratedCrd> CRDS = CrdGenerator.generate(Widget.class);

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CrdInstaller.install(client, CRDS, Duration.ofSeconds(60));
    }
  }

  @AfterAll
  static void removeCrd(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      client.apiextensions().v1().customResourceDefinitions().withName(CRDS.get(0).name()).delete();
    }
  }

  private static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      widgets(KubernetesClient client) {
    return client.genericKubernetesResources("widgets.crd.converge.dev/v1", "Widget");
  }

  /** A valid spec; each case changes one property. */
  private static ObjectNode validSpec() {
    ObjectNode spec = JSON.createObjectNode();
    spec.put("name", "my-widget");
    spec.put("revision", "v1");
    return spec;
  }

  private static GenericKubernetesResource widget(String name, JsonNode spec) {
    Map<String, Object> object =
        Map.of(
            "apiVersion",
            "widgets.crd.converge.dev/v1",
            "kind",
            "Widget",
            "metadata",
            Map.of("name", name),
            "spec",
            JSON.convertValue(spec, Map.class));
    return JSON.convertValue(object, GenericKubernetesResource.class);
  }

  static Stream<Arguments> violations() {
    return Stream.of(
        Arguments.of(
            "required (Converge)", "{\"name\": null}", List.of("spec.name", "Required value")),
        Arguments.of(
            "required (Jakarta)",
            "{\"revision\": null}",
            List.of("spec.revision", "Required value")),
        Arguments.of(
            "minLength", "{\"name\": \"ab\"}", List.of("spec.name", "at least 3 chars long")),
        Arguments.of(
            "maxLength",
            "{\"name\": \"abcdefghijklmnopqrstuvwxyz\"}",
            List.of("spec.name", "may not be more than 20")),
        Arguments.of(
            "pattern",
            "{\"name\": \"Not-Lower\"}",
            List.of("spec.name", "should match '^[a-z][a-z0-9-]*$'")),
        Arguments.of(
            "minimum", "{\"size\": 0}", List.of("spec.size", "greater than or equal to 1")),
        Arguments.of("exclusive maximum", "{\"size\": 100}", List.of("spec.size", "less than 100")),
        Arguments.of(
            "exclusive minimum (Jakarta @Positive)",
            "{\"weight\": 0}",
            List.of("spec.weight", "greater than 0")),
        Arguments.of(
            "enum from Java enum",
            "{\"mode\": \"slow\"}",
            List.of("spec.mode", "Unsupported value: \"slow\"", "\"fast\"", "\"safe\"")),
        Arguments.of(
            "allowed values",
            "{\"color\": \"pink\"}",
            List.of("spec.color", "\"red\", \"green\", \"blue\"")),
        Arguments.of("minItems", "{\"tags\": []}", List.of("spec.tags", "at least 1 items")),
        Arguments.of(
            "maxItems",
            "{\"tags\": [\"a\", \"b\", \"c\", \"d\", \"e\"]}",
            List.of("spec.tags", "at most 4 items")),
        Arguments.of(
            "list-type set",
            "{\"tags\": [\"a\", \"a\"]}",
            List.of("spec.tags[1]", "Duplicate value")),
        Arguments.of(
            "list-type map",
            "{\"ports\": [{\"name\": \"http\", \"port\": 80}, {\"name\": \"http\", \"port\": 81}]}",
            List.of("spec.ports[1]", "Duplicate value")),
        Arguments.of(
            "pattern on list items",
            "{\"labelsInOrder\": [\"ok\", \"NOT\"]}",
            List.of("spec.labelsInOrder[1]", "should match '^[a-z]+$'")),
        Arguments.of("type", "{\"big\": \"many\"}", List.of("spec.big", "must be of type integer")),
        Arguments.of("int-or-string", "{\"maxUnavailable\": true}", List.of("spec.maxUnavailable")),
        Arguments.of(
            "CEL on a field",
            "{\"image\": \"nginx\"}",
            List.of("spec.image", "image must start with img-")),
        Arguments.of(
            "CEL on a type",
            "{\"endpoint\": {\"url\": \"http://x\"}}",
            List.of("spec.endpoint", "url must use https")),
        Arguments.of(
            "CEL on the resource",
            "{\"size\": 50, \"maxSize\": 10}",
            List.of("size must not exceed maxSize")),
        Arguments.of(
            "exactly one of",
            "{\"endpoint\": {\"url\": \"https://x\", \"service\": \"svc\"}}",
            List.of("spec.endpoint", "oneOf")),
        Arguments.of(
            "embedded resource",
            "{\"template\": {\"data\": {}}}",
            List.of("spec.template", "Required value")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("violations")
  void aViolationIsRejectedWithTheSchemasMessage(
      String kind, String change, List<String> expected, KubernetesClient client) throws Exception {
    ObjectNode spec = validSpec();
    ObjectNode changes = (ObjectNode) JSON.readTree(change);
    changes
        .properties()
        .forEach(
            e -> {
              if (e.getValue().isNull()) {
                spec.remove(e.getKey());
              } else {
                spec.set(e.getKey(), e.getValue());
              }
            });
    assertThatThrownBy(() -> widgets(client).resource(widget("invalid", spec)).create())
        .as(kind)
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(e.getMessage()).contains(expected);
            });
  }

  @Test
  void aValidWidgetIsAcceptedAndDefaultsAreFilledInByTheServer(KubernetesClient client) {
    GenericKubernetesResource created =
        widgets(client).resource(widget("defaults", validSpec())).create();
    Map<String, Object> spec = created.get("spec");
    assertThat(spec).containsEntry("size", 10);
    assertThat(spec).containsEntry("mode", "fast");
    assertThat(spec).containsEntry("defaultedFlag", true);
    assertThat(spec).containsEntry("defaultedList", List.of("a", "b"));
  }

  @Test
  void aTransitionRuleComparesWithTheOldValue(KubernetesClient client) {
    ObjectNode spec = validSpec();
    spec.put("storageClass", "fast");
    GenericKubernetesResource created =
        widgets(client).resource(widget("immutable", spec)).create();
    Map<String, Object> changed = created.get("spec");
    changed.put("storageClass", "slow");
    assertThatThrownBy(() -> widgets(client).resource(created).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(e.getMessage()).contains("spec.storageClass", "storageClass is immutable");
            });
    changed.put("storageClass", "fast");
    changed.put("size", 20);
    GenericKubernetesResource updated = widgets(client).resource(created).update();
    assertThat(updated.<Object>get("spec", "size")).isEqualTo(20);
  }

  @Test
  void intOrStringAcceptsBoth(KubernetesClient client) {
    ObjectNode spec = validSpec();
    spec.put("maxUnavailable", 1);
    spec.put("memory", "512Mi");
    spec.put("threshold", "25%");
    widgets(client).resource(widget("int-or-string-a", spec)).create();
    spec.put("maxUnavailable", "25%");
    spec.put("threshold", 3);
    GenericKubernetesResource second =
        widgets(client).resource(widget("int-or-string-b", spec)).create();
    assertThat(second.<Object>get("spec", "threshold")).isEqualTo(3);
  }

  @Test
  void unknownFieldsArePrunedExceptWherePreserved(KubernetesClient client) throws Exception {
    ObjectNode spec = validSpec();
    spec.put("bogus", "dropped");
    spec.set("endpoint", JSON.readTree("{\"service\": \"svc\", \"extraKey\": \"dropped\"}"));
    spec.set("openEndpoint", JSON.readTree("{\"service\": \"svc\", \"extraKey\": \"kept\"}"));
    spec.set("anything", JSON.readTree("{\"deep\": {\"list\": [1, \"two\"]}}"));
    spec.set(
        "template",
        JSON.readTree(
            "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"data\": {\"k\": \"v\"}}"));
    GenericKubernetesResource created = widgets(client).resource(widget("pruning", spec)).create();
    Map<String, Object> live = created.get("spec");
    assertThat(live).doesNotContainKey("bogus");
    Map<String, Object> endpoint = created.get("spec", "endpoint");
    assertThat(endpoint).doesNotContainKey("extraKey");
    Map<String, Object> openEndpoint = created.get("spec", "openEndpoint");
    assertThat(openEndpoint).containsEntry("extraKey", "kept");
    assertThat(created.<Object>get("spec", "anything", "deep", "list"))
        .isEqualTo(List.of(1, "two"));
    assertThat(created.<Object>get("spec", "template", "data", "k")).isEqualTo("v");
  }
}
