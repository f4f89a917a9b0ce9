package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.spec;
import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.Widget;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The x-kubernetes-* extensions and the value-only combinators a structural schema allows. */
class KubernetesExtensionsTest {

  @Test
  void listTypes() {
    assertThat(spec(Widget.class, "tags").get("x-kubernetes-list-type").asString())
        .isEqualTo("set");
    assertThat(spec(Widget.class, "numbers").get("x-kubernetes-list-type").asString())
        .isEqualTo("atomic");
    JsonNode ports = spec(Widget.class, "ports");
    assertThat(ports.get("x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(texts(ports.get("x-kubernetes-list-map-keys"))).containsExactly("name");
  }

  @Test
  void mapType() {
    assertThat(spec(Widget.class, "limits").get("x-kubernetes-map-type").asString())
        .isEqualTo("atomic");
  }

  @Test
  void celRulesOnFieldsTypesAndTheResource() {
    JsonNode image = spec(Widget.class, "image").get("x-kubernetes-validations").get(0);
    assertThat(image.get("rule").asString()).isEqualTo("self.startsWith('img-')");
    assertThat(image.get("message").asString()).isEqualTo("image must start with img-");
    JsonNode endpoint = spec(Widget.class, "endpoint").get("x-kubernetes-validations").get(0);
    assertThat(endpoint.get("message").asString()).isEqualTo("url must use https");
    JsonNode root = SchemaTrees.schema(Widget.class).get("x-kubernetes-validations").get(0);
    assertThat(root.get("message").asString()).isEqualTo("size must not exceed maxSize");
  }

  @Test
  void exactlyOneOfIsAOneOfOfRequired() {
    JsonNode oneOf = spec(Widget.class, "endpoint").get("oneOf");
    assertThat(oneOf.valueStream().map(alternative -> texts(alternative.get("required"))).toList())
        .containsExactly(java.util.List.of("url"), java.util.List.of("service"));
  }

  @Test
  void preserveUnknownFieldsKeepsTheDeclaredProperties() {
    JsonNode open = spec(Widget.class, "openEndpoint");
    assertThat(open.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
    assertThat(open.get("properties").propertyNames()).contains("url", "service");
    assertThat(spec(Widget.class, "endpoint").has("x-kubernetes-preserve-unknown-fields"))
        .isFalse();
  }
}
