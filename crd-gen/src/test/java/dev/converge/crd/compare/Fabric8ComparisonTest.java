package dev.converge.crd.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CustomResourceDefinitionTest;
import dev.converge.crd.GeneratedCrd;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Converge's generator and fabric8's crd-generator (api-v2, 8.0) agree, on the same classes, for
 * every feature both support. "Agree" means the API server would treat the two CRDs the same; the
 * normalisation below lists each difference that is only spelling, and why.
 */
class Fabric8ComparisonTest {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  static JsonNode converge(Class<?> resource) {
    List<GeneratedCrd> crds = CrdGenerator.generate(resource);
    return YAML.readTree(crds.get(0).yaml());
  }

  static JsonNode fabric8(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> resource) {
    Map<String, String> crds = Fabric8Crds.generate(resource);
    assertThat(crds).hasSize(1);
    return YAML.readTree(crds.values().iterator().next());
  }

  @Test
  void sharedFeaturesProduceTheSameCrd() {
    JsonNode ours = normalize(converge(Gizmo.class));
    JsonNode theirs = normalize(fabric8(Gizmo.class));
    // Two things only Converge says, both about how the API server treats the value
    // (Fabric8GapsTest):
    // a Quantity's pattern, and that a Java Set is a list-type set.
    ObjectNode spec =
        (ObjectNode) ours.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties");
    assertThat(((ObjectNode) spec.get("memory")).remove("pattern")).isNotNull();
    assertThat(((ObjectNode) spec.get("uniqueNames")).remove("x-kubernetes-list-type").asString())
        .isEqualTo("set");
    assertThat(ours.toPrettyString()).isEqualTo(theirs.toPrettyString());
  }

  @Test
  void severalVersionsWithServedStorageAndDeprecationAgree() {
    JsonNode ours =
        YAML.readTree(
            CrdGenerator.generate(
                    CustomResourceDefinitionTest.GadgetV1Alpha1.class,
                    CustomResourceDefinitionTest.GadgetV1Beta1.class,
                    CustomResourceDefinitionTest.GadgetV1.class)
                .get(0)
                .yaml());
    Map<String, String> fabric8 =
        Fabric8Crds.generate(
            List.of(
                CustomResourceDefinitionTest.GadgetV1Alpha1.class,
                CustomResourceDefinitionTest.GadgetV1Beta1.class,
                CustomResourceDefinitionTest.GadgetV1.class));
    assertThat(fabric8).hasSize(1);
    JsonNode theirs = YAML.readTree(fabric8.values().iterator().next());
    assertThat(byVersionName(normalize(ours))).isEqualTo(byVersionName(normalize(theirs)));
    assertThat(ours.at("/spec/versions").size()).isEqualTo(3);
  }

  @Test
  void scaleSubresourceFromFabric8FieldAnnotationsAgrees() {
    JsonNode ours = normalize(converge(CustomResourceDefinitionTest.Replicated.class));
    JsonNode theirs = normalize(fabric8(CustomResourceDefinitionTest.Replicated.class));
    assertThat(ours.at("/spec/versions/0/subresources/scale").isObject()).isTrue();
    assertThat(ours.toPrettyString()).isEqualTo(theirs.toPrettyString());
  }

  /** Versions keyed by name: the order of versions in a CRD carries no meaning. */
  private static Map<String, String> byVersionName(JsonNode crd) {
    Map<String, String> versions = new java.util.TreeMap<>();
    crd.at("/spec/versions")
        .forEach(v -> versions.put(v.get("name").asString(), v.toPrettyString()));
    versions.put(
        "(names, scope, group)",
        crd.at("/spec/names").toPrettyString() + crd.at("/spec/scope") + crd.at("/spec/group"));
    return versions;
  }

  @Test
  void theComparisonIsNotVacuous() {
    JsonNode schema =
        normalize(converge(Gizmo.class))
            .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
    assertThat(schema.get("properties").size()).isGreaterThanOrEqualTo(20);
    assertThat(schema.at("/properties/size/default").asInt()).isEqualTo(3);
    assertThat(schema.at("/properties/image/x-kubernetes-validations/0/message").asString())
        .isEqualTo("image must start with img-");
    assertThat(schema.at("/properties/name/pattern").asString()).isEqualTo("^[a-z]+$");
    JsonNode columns =
        normalize(converge(Gizmo.class)).at("/spec/versions/0/additionalPrinterColumns");
    assertThat(columns.valueStream().map(c -> c.get("jsonPath").asString()).toList())
        .containsExactly(".spec.size", ".status.observedGeneration", ".status.phase");
  }

  /**
   * Brings both CRDs to the form the API server sees: the server fills in {@code listKind} as kind
   * + "List" and always knows apiVersion, kind and metadata at the root of the schema, so their
   * absence is the same as their presence; a printer column's priority defaults to 0; numbers
   * compare by value (1 and 1.0); {@code required} is a set. One real but negligible difference is
   * removed too: for a {@code Void} status fabric8 declares {@code status: {type: object}} (which
   * keeps an empty {@code status: {}} and prunes anything in it), Converge declares no status
   * (which prunes it whole). And one deliberate difference: when the spec has required fields,
   * Converge requires the spec itself (fabric8 does not, so an object without a spec skips every
   * spec rule and default); the root's {@code required: [spec]} is removed before comparing.
   */
  static JsonNode normalize(JsonNode crd) {
    ObjectNode copy = (ObjectNode) crd.deepCopy();
    ObjectNode names = (ObjectNode) copy.at("/spec/names");
    if (!names.has("listKind")) {
      names.put("listKind", names.get("kind").asString() + "List");
    }
    for (JsonNode version : copy.at("/spec/versions")) {
      ObjectNode root = (ObjectNode) version.at("/schema/openAPIV3Schema");
      ObjectNode properties = (ObjectNode) root.get("properties");
      properties.remove(List.of("apiVersion", "kind", "metadata"));
      if (root.path("required").size() == 1
          && "spec".equals(root.path("required").get(0).asString(""))) {
        root.remove("required");
      }
      JsonNode status = properties.get("status");
      if (status != null
          && status.size() == 1
          && "object".equals(status.path("type").asString(""))) {
        properties.remove("status");
      }
      for (JsonNode column : version.path("additionalPrinterColumns")) {
        if (column.path("priority").asInt(0) == 0) {
          ((ObjectNode) column).remove("priority");
        }
      }
    }
    return canonical(copy);
  }

  private static JsonNode canonical(JsonNode node) {
    if (node.isNumber()) {
      return NODES.numberNode(node.decimalValue().stripTrailingZeros());
    }
    if (node.isArray()) {
      ArrayNode array = NODES.arrayNode();
      node.forEach(element -> array.add(canonical(element)));
      return array;
    }
    if (node.isObject()) {
      ObjectNode object = NODES.objectNode();
      List<String> keys = new ArrayList<>(node.propertyNames());
      keys.sort(String::compareTo);
      for (String key : keys) {
        JsonNode value = canonical(node.get(key));
        if (key.equals("required")) {
          List<String> sorted =
              new ArrayList<>(value.valueStream().map(JsonNode::asString).toList());
          sorted.sort(String::compareTo);
          ArrayNode set = NODES.arrayNode();
          sorted.forEach(set::add);
          value = set;
        }
        object.set(key, value);
      }
      return object;
    }
    return node;
  }
}
