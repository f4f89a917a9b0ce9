package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.spec;
import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.Widget;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Converge's and Jakarta Validation's annotations become OpenAPI validation keywords. */
class ValidationAnnotationsTest {

  private final JsonNode specSchema = SchemaTrees.schema(Widget.class).at("/properties/spec");

  @Test
  void requiredFromConvergeAndJakarta() {
    assertThat(texts(specSchema.get("required"))).containsExactlyInAnyOrder("name", "revision");
    assertThat(texts(spec(Widget.class, "ports").at("/items/required"))).containsExactly("name");
  }

  @Test
  void numericBoundsInclusiveAndExclusive() {
    JsonNode size = spec(Widget.class, "size");
    assertThat(size.get("minimum").asDouble()).isEqualTo(1.0);
    assertThat(size.has("exclusiveMinimum")).isFalse();
    assertThat(size.get("maximum").asDouble()).isEqualTo(100.0);
    assertThat(size.get("exclusiveMaximum").asBoolean()).isTrue();
    JsonNode ratio = spec(Widget.class, "ratio");
    assertThat(ratio.get("minimum").asDouble()).isEqualTo(0.0);
    assertThat(ratio.get("exclusiveMinimum").asBoolean()).isTrue();
    JsonNode weight = spec(Widget.class, "weight");
    assertThat(weight.get("minimum").asDouble()).as("@Positive").isEqualTo(0.0);
    assertThat(weight.get("exclusiveMinimum").asBoolean()).isTrue();
  }

  @Test
  void stringLengthsPatternsAndFormats() {
    JsonNode name = spec(Widget.class, "name");
    assertThat(name.get("minLength").asInt()).isEqualTo(3);
    assertThat(name.get("maxLength").asInt()).isEqualTo(20);
    assertThat(name.get("pattern").asString()).isEqualTo("^[a-z][a-z0-9-]*$");
    JsonNode revision = spec(Widget.class, "revision");
    assertThat(revision.get("minLength").asInt()).isEqualTo(1);
    assertThat(revision.get("maxLength").asInt()).isEqualTo(5);
    assertThat(revision.get("pattern").asString()).isEqualTo("^v[0-9]+$");
    assertThat(spec(Widget.class, "host").get("format").asString()).isEqualTo("hostname");
  }

  @Test
  void itemBoundsAndItemAnnotations() {
    JsonNode tags = spec(Widget.class, "tags");
    assertThat(tags.get("minItems").asInt()).isEqualTo(1);
    assertThat(tags.get("maxItems").asInt()).isEqualTo(4);
    assertThat(spec(Widget.class, "aliases").get("maxItems").asInt())
        .as("Jakarta @Size on a list")
        .isEqualTo(3);
    JsonNode labels = spec(Widget.class, "labelsInOrder");
    assertThat(labels.has("pattern")).as("the list itself has no pattern").isFalse();
    assertThat(labels.at("/items/pattern").asString()).isEqualTo("^[a-z]+$");
  }

  @Test
  void defaultsAreTypedJson() {
    assertThat(spec(Widget.class, "size").get("default").isIntegralNumber()).isTrue();
    assertThat(spec(Widget.class, "size").get("default").asInt()).isEqualTo(10);
    assertThat(spec(Widget.class, "mode").get("default").asString()).isEqualTo("fast");
    assertThat(texts(spec(Widget.class, "defaultedList").get("default"))).containsExactly("a", "b");
    assertThat(spec(Widget.class, "defaultedFlag").get("default").isBoolean()).isTrue();
  }

  @Test
  void allowedValuesRestrictAString() {
    assertThat(texts(spec(Widget.class, "color").get("enum")))
        .containsExactly("red", "green", "blue");
  }

  @Test
  void nullableOnlyWhereAsked() {
    assertThat(spec(Widget.class, "optionalValue").get("nullable").asBoolean()).isTrue();
    assertThat(spec(Widget.class, "name").has("nullable")).isFalse();
    assertThat(spec(Widget.class, "note").has("nullable"))
        .as("Optional alone is not nullable")
        .isFalse();
  }

  @Test
  void descriptionsFromConvergeAndJackson() {
    assertThat(spec(Widget.class, "name").get("description").asString())
        .isEqualTo("Name of the widget.");
    assertThat(spec(Widget.class, "documented").get("description").asString())
        .isEqualTo("Described by Jackson.");
    assertThat(spec(Widget.class, "endpoint").get("description").asString())
        .as("@JsonClassDescription")
        .isEqualTo("Where the widget is reached.");
    assertThat(SchemaTrees.schema(Widget.class).get("description").asString())
        .isEqualTo("A widget exercising every schema feature.");
  }
}
