package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.annotation.CrdAnnotation;
import dev.converge.crd.annotation.CrdLabel;
import dev.converge.crd.annotation.Rule;
import dev.converge.crd.annotation.SelectableField;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Sets, transition rules on optional fields, selectable fields, CRD labels and annotations,
 * formats.
 */
public class CrdFeaturesTest {

  public enum Color {
    RED,
    GREEN
  }

  public static class Features {
    @SelectableField public String color;
    public Set<String> names;
    public Set<Color> colors;
    public Set<Integer> numbers;
    public List<String> ordered;

    @Rule(
        value = "!oldSelf.hasValue() || self == oldSelf.value()",
        message = "owner is set once",
        optionalOldSelf = true)
    public String owner;

    public Quantity memory;
    public Duration timeout;
    public io.fabric8.kubernetes.api.model.Duration interval;
    public Nested nested;
  }

  public static class Nested {
    public Integer level;
    public List<String> items;
  }

  @Group("features.crd.converge.dev")
  @Version("v1")
  @Kind("Feature")
  @Plural("features")
  @SelectableField(jsonPath = ".spec.nested.level")
  @CrdLabel(name = "app.kubernetes.io/part-of", value = "shop")
  @CrdAnnotation(name = "example.com/owner", value = "team-a")
  public static class Feature extends CustomResource<Features, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aJavaSetOfScalarsIsAListTypeSet() {
    assertThat(SchemaTrees.spec(Feature.class, "names").get("x-kubernetes-list-type").asString())
        .isEqualTo("set");
    assertThat(SchemaTrees.spec(Feature.class, "colors").get("x-kubernetes-list-type").asString())
        .isEqualTo("set");
    assertThat(SchemaTrees.spec(Feature.class, "numbers").get("x-kubernetes-list-type").asString())
        .isEqualTo("set");
    assertThat(SchemaTrees.spec(Feature.class, "ordered").has("x-kubernetes-list-type")).isFalse();
  }

  @Test
  void aTransitionRuleMayRunOnOptionalOldSelf() {
    JsonNode rule = SchemaTrees.spec(Feature.class, "owner").at("/x-kubernetes-validations/0");
    assertThat(rule.get("optionalOldSelf").asBoolean()).isTrue();
    assertThat(rule.get("message").asString()).isEqualTo("owner is set once");
  }

  @Test
  void selectableFieldsFromTheClassAndFromFields() {
    JsonNode crd = SchemaTrees.crd(Feature.class);
    assertThat(
            SchemaTrees.texts(
                crd.at("/spec/versions/0/selectableFields").findValues("jsonPath").stream()
                    .collect(
                        tools.jackson.databind.node.JsonNodeFactory.instance::arrayNode,
                        tools.jackson.databind.node.ArrayNode::add,
                        tools.jackson.databind.node.ArrayNode::addAll)))
        .containsExactly(".spec.nested.level", ".spec.color");
  }

  @Test
  void labelsAndAnnotationsOnTheCrdItself() {
    JsonNode metadata = SchemaTrees.crd(Feature.class).get("metadata");
    assertThat(metadata.at("/labels/app.kubernetes.io~1part-of").asString()).isEqualTo("shop");
    assertThat(metadata.at("/annotations/example.com~1owner").asString()).isEqualTo("team-a");
  }

  public static class BadSelectable {
    @SelectableField public List<String> tags;
  }

  @Group("features.crd.converge.dev")
  @Version("v1")
  public static class BadSelectableResource extends CustomResource<BadSelectable, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("features.crd.converge.dev")
  @Version(value = "v2", storage = false)
  @Kind("Feature")
  @Plural("features")
  @CrdLabel(name = "app.kubernetes.io/part-of", value = "other")
  public static class ConflictingLabel extends CustomResource<Features, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aSelectableFieldMustBeAScalar() {
    assertThatThrownBy(() -> CrdGenerator.generate(BadSelectableResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("BadSelectable.tags (spec.tags)")
        .hasMessageContaining("string, integer and boolean");
  }

  @Test
  void versionsMustAgreeOnCrdLabels() {
    assertThatThrownBy(() -> CrdGenerator.generate(Feature.class, ConflictingLabel.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("'app.kubernetes.io/part-of'")
        .hasMessageContaining("'shop', 'other'");
  }

  @Test
  void durationsAreDescribedAsTheyAreWritten() {
    JsonNode timeout = SchemaTrees.spec(Feature.class, "timeout");
    assertThat(timeout.get("type").asString()).isEqualTo("string");
    Pattern iso = Pattern.compile(timeout.get("pattern").asString());
    for (Duration value :
        List.of(
            Duration.ZERO,
            Duration.ofMinutes(90).plusMillis(5),
            Duration.ofMillis(-500),
            Duration.ofDays(400))) {
      assertThat(iso.matcher(value.toString()).matches()).as(value.toString()).isTrue();
    }
    assertThat(iso.matcher("1h30m").matches()).isFalse();
    JsonNode interval = SchemaTrees.spec(Feature.class, "interval");
    assertThat(interval.get("format").asString())
        .as("fabric8's metav1.Duration is Go's form")
        .isEqualTo("duration");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1", "512Mi", "1.5Gi", "100m", "+2", "-3k", ".5", "1e3", "2E-2", "10n", "5u", "1Ei"
      })
  void quantityPatternAcceptsWhatTheApiServerParses(String quantity) {
    Pattern pattern =
        Pattern.compile(SchemaTrees.spec(Feature.class, "memory").get("pattern").asString());
    assertThat(pattern.matcher(quantity).matches()).isTrue();
    assertThat(pattern.matcher(new Quantity(quantity).toString()).matches()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"lots", "", "1 Gi", "1gi", "1KiB", "Mi", "1.2.3"})
  void quantityPatternRefusesWhatTheApiServerCannotParse(String quantity) {
    Pattern pattern =
        Pattern.compile(SchemaTrees.spec(Feature.class, "memory").get("pattern").asString());
    assertThat(pattern.matcher(quantity).matches()).isFalse();
  }
}
