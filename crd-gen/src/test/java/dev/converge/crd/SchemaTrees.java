package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Parses generated YAML back into a tree, so tests assert on structure rather than on text. */
final class SchemaTrees {
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private SchemaTrees() {}

  /** The whole CRD of a single-CRD generation, read back from its YAML. */
  static JsonNode crd(Class<?>... classes) {
    List<GeneratedCrd> crds = CrdGenerator.generate(classes);
    assertThat(crds).hasSize(1);
    return YAML.readTree(crds.get(0).yaml());
  }

  /** The openAPIV3Schema of the first version. */
  static JsonNode schema(Class<?> resource) {
    return crd(resource).at("/spec/versions/0/schema/openAPIV3Schema");
  }

  /** The schema of spec.&lt;property&gt;. */
  static JsonNode spec(Class<?> resource, String property) {
    JsonNode node = schema(resource).at("/properties/spec/properties/" + property);
    assertThat(node.isMissingNode()).as("spec property %s exists", property).isFalse();
    return node;
  }

  /**
   * Checks the structural rules of KEP-2335 that a generator can break, over the whole tree: no
   * references, a type on every node (unless int-or-string or preserve-unknown-fields), no type
   * arrays, no JSON-Schema-only keywords, numeric exclusive bounds turned into booleans.
   */
  static void assertStructural(JsonNode node, String path) {
    assertThat(node.has("$ref")).as("%s has no $ref", path).isFalse();
    assertThat(node.has("$defs") || node.has("$schema") || node.has("const"))
        .as("%s has no JSON Schema only keywords", path)
        .isFalse();
    boolean typeless =
        node.path("x-kubernetes-int-or-string").asBoolean(false)
            || node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (!typeless) {
      assertThat(node.path("type").isString()).as("%s has a single type: %s", path, node).isTrue();
    }
    for (String bound : List.of("exclusiveMinimum", "exclusiveMaximum")) {
      if (node.has(bound)) {
        assertThat(node.get(bound).isBoolean()).as("%s %s is boolean", path, bound).isTrue();
      }
    }
    for (String key : node.propertyNames()) {
      assertThat(key).as("%s keyword", path).doesNotStartWith("x-converge");
    }
    if (node.has("properties")) {
      for (Map.Entry<String, JsonNode> property : node.get("properties").properties()) {
        assertStructural(property.getValue(), path + "." + property.getKey());
      }
    }
    if (node.has("items")) {
      assertStructural(node.get("items"), path + "[*]");
    }
    if (node.has("additionalProperties") && node.get("additionalProperties").isObject()) {
      assertStructural(node.get("additionalProperties"), path + "{*}");
    }
  }

  static List<String> texts(JsonNode array) {
    return array.valueStream().map(JsonNode::asString).toList();
  }
}
