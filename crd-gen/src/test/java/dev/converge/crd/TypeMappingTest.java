package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.spec;
import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.Widget;
import dev.converge.crd.sample.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Java types become the OpenAPI types and formats Kubernetes expects. */
class TypeMappingTest {

  @ParameterizedTest
  @CsvSource({
    "size, integer, int32",
    "big, integer, int64",
    "small, number, float",
    "ratio, number, double",
    "amount, number, ''",
    "enabled, boolean, ''",
    "name, string, ''",
    "notAfter, string, date-time",
  })
  void scalarsHaveTypeAndFormat(String property, String type, String format) {
    JsonNode node = spec(Widget.class, property);
    assertThat(node.get("type").asString()).isEqualTo(type);
    assertThat(node.path("format").asString("")).isEqualTo(format);
  }

  @Test
  void enumsAreStringEnumsWithTheirJacksonNames() {
    JsonNode mode = spec(Widget.class, "mode");
    assertThat(mode.get("type").asString()).isEqualTo("string");
    assertThat(texts(mode.get("enum"))).containsExactly("fast", "safe");
    JsonNode protocol = spec(Widget.class, "ports").at("/items/properties/protocol");
    assertThat(texts(protocol.get("enum"))).containsExactly("tcp", "udp");
  }

  @Test
  void listsSetsAndMaps() {
    assertThat(spec(Widget.class, "aliases").at("/items/type").asString()).isEqualTo("string");
    assertThat(spec(Widget.class, "tags").get("type").asString()).isEqualTo("array");
    JsonNode limits = spec(Widget.class, "limits");
    assertThat(limits.get("type").asString()).isEqualTo("object");
    assertThat(limits.at("/additionalProperties/type").asString()).isEqualTo("integer");
    assertThat(limits.has("properties")).isFalse();
  }

  @Test
  void nestedClassesRecordsAndOptionalsAreInlined() {
    JsonNode endpoint = spec(Widget.class, "endpoint");
    assertThat(endpoint.get("type").asString()).isEqualTo("object");
    assertThat(endpoint.get("properties").propertyNames())
        .containsExactlyInAnyOrder("url", "service");
    JsonNode port = spec(Widget.class, "ports").get("items");
    assertThat(port.get("properties").propertyNames())
        .containsExactlyInAnyOrder("name", "port", "protocol");
    assertThat(spec(Widget.class, "note").get("type").asString()).isEqualTo("string");
    JsonNode status = SchemaTrees.schema(Widget.class).at("/properties/status/properties");
    assertThat(status.propertyNames()).containsExactlyInAnyOrder("phase", "observedSize");
  }

  @Test
  void jsonPropertyRenamesAProperty() {
    assertThat(spec(Widget.class, "renamed-field").get("type").asString()).isEqualTo("string");
    assertThat(
            SchemaTrees.schema(Widget.class)
                .at("/properties/spec/properties/renamedField")
                .isMissingNode())
        .isTrue();
  }

  @Test
  void intOrStringAndQuantityAcceptBoth() {
    for (String property : new String[] {"maxUnavailable", "memory", "threshold"}) {
      JsonNode node = spec(Widget.class, property);
      assertThat(node.get("x-kubernetes-int-or-string").asBoolean()).as(property).isTrue();
      assertThat(node.has("type")).as(property + " has no type of its own").isFalse();
      assertThat(node.get("anyOf").valueStream().map(n -> n.get("type").asString()).toList())
          .containsExactly("integer", "string");
    }
  }

  @Test
  void untypedValuesPreserveUnknownFields() {
    assertThat(
            spec(Widget.class, "anything").get("x-kubernetes-preserve-unknown-fields").asBoolean())
        .isTrue();
    assertThat(spec(Widget.class, "anything").has("type")).isFalse();
    assertThat(spec(Widget.class, "raw").get("x-kubernetes-preserve-unknown-fields").asBoolean())
        .isTrue();
    JsonNode extra = spec(Widget.class, "extra");
    assertThat(extra.get("type").asString()).isEqualTo("object");
    assertThat(extra.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
  }

  @Test
  void kubernetesObjectsAreEmbeddedResources() {
    JsonNode template = spec(Widget.class, "template");
    assertThat(template.get("type").asString()).isEqualTo("object");
    assertThat(template.get("x-kubernetes-embedded-resource").asBoolean()).isTrue();
    assertThat(template.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
  }

  @Test
  void fabric8ModelTypesExpandAndNestedMetadataKeepsItsContent() {
    JsonNode template = spec(Workload.class, "template");
    assertThat(
            template
                .at("/properties/spec/properties/containers/items/properties/image/type")
                .asString())
        .isEqualTo("string");
    JsonNode metadata = template.at("/properties/metadata");
    assertThat(metadata.get("type").asString()).isEqualTo("object");
    assertThat(metadata.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
    assertThat(
            spec(Workload.class, "resources")
                .at("/properties/limits/additionalProperties/x-kubernetes-int-or-string")
                .asBoolean())
        .isTrue();
    SchemaTrees.assertStructural(SchemaTrees.schema(Workload.class), "Workload");
  }

  @Test
  void wholeSchemaIsStructural() {
    SchemaTrees.assertStructural(SchemaTrees.schema(Widget.class), "Widget");
  }
}
