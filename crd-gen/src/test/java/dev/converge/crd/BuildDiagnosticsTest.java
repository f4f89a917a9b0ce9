package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.PreserveUnknownFields;
import dev.converge.crd.build.GenerateCrds;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * What the build step says about Java types whose CRD would not behave as the code suggests: each
 * warning or error names the class, the field, the path and the fix.
 */
public class BuildDiagnosticsTest {

  // ---- @Default on a primitive

  public static class Counts {
    @Default("3")
    public int replicas;

    @Default("3")
    public Integer boxed;

    @Default("true")
    public boolean enabled;

    @Default("8080")
    public int port = 8080;

    @jakarta.validation.constraints.Positive public int weight;

    @dev.converge.crd.annotation.Minimum(1)
    public int ready = 1;
  }

  @Group("diagnostics.crd.converge.dev")
  @Version("v1")
  public static class Counter extends CustomResource<Counts, Void> {
    private static final long serialVersionUID = 1L;
  }

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public static class SparseCounts {
    @Default("3")
    public int replicas;
  }

  @Group("diagnostics.crd.converge.dev")
  @Version("v1")
  public static class SparseCounter extends CustomResource<SparseCounts, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aDefaultOnAPrimitiveIsAWarningNamingTheFieldAndTheFix() {
    List<String> warnings =
        CrdGenerator.generate(Counter.class).get(0).warnings().stream()
            .filter(w -> w.contains("@Default"))
            .toList();
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0))
        .contains(
            "Counter Counts.enabled (spec.enabled)",
            "@Default(\"true\")",
            "primitive boolean",
            "fabric8 always sends the field (false when unset)",
            "Use the wrapper type (Boolean");
    assertThat(warnings.get(1))
        .contains(
            "Counts.replicas (spec.replicas)",
            "@Default(\"3\")",
            "(0 when unset)",
            "(Integer",
            "initialise");
    assertThat(warnings)
        .as("a wrapper, and a primitive initialised to its default, need no warning")
        .noneMatch(w -> w.contains("Counts.boxed") || w.contains("Counts.port"));
  }

  @Test
  void aPrimitiveWhoseStartingValueTheSchemaRefusesIsAWarning() {
    List<String> warnings = CrdGenerator.generate(Counter.class).get(0).warnings();
    assertThat(warnings)
        .filteredOn(w -> w.contains("Counts.weight"))
        .singleElement()
        .asString()
        .contains(
            "Counts.weight (spec.weight)",
            "primitive int",
            "starts out as 0",
            "exclusive minimum 0",
            "Use the wrapper type (Integer",
            "initialise the field to a valid value");
    assertThat(warnings)
        .as("initialised to a valid value")
        .noneMatch(w -> w.contains("Counts.ready"));
  }

  @Test
  void noWarningWhenJacksonLeavesOutDefaultValues() {
    assertThat(CrdGenerator.generate(SparseCounter.class).get(0).warnings()).isEmpty();
  }

  @Test
  void theBuildStepPrintsWarningsAndFailsOnThemWhenAsked(@TempDir Path output) {
    List<String> printed = new ArrayList<>();
    GenerateCrds.run(
        List.of("--class", Counter.class.getName(), "--output", output.toString()),
        getClass().getClassLoader(),
        printed::add);
    assertThat(printed).hasSize(3).anyMatch(w -> w.contains("Counts.weight"));
    assertThatThrownBy(
            () ->
                GenerateCrds.run(
                    List.of(
                        "--class",
                        Counter.class.getName(),
                        "--output",
                        output.toString(),
                        "--fail-on-warnings"),
                    getClass().getClassLoader(),
                    printed::add))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("--fail-on-warnings: 3 warning(s)")
        .hasMessageContaining("Counts.replicas (spec.replicas)");
  }

  // ---- serialisation the schema cannot describe

  /** Written by a serializer that does not say what it writes. */
  @JsonSerialize(using = Opaque.Writer.class)
  public static class Opaque {
    public String a;

    public static class Writer extends StdSerializer<Opaque> {
      public Writer() {
        super(Opaque.class);
      }

      @Override
      public void serialize(Opaque value, JsonGenerator generator, SerializationContext context) {
        generator.writeString("opaque:" + value.a);
      }
    }
  }

  /** Written as a single string by its @JsonValue. */
  public static class Token {
    private final String text;

    public Token(String text) {
      this.text = text;
    }

    @JsonValue
    public String text() {
      return text;
    }
  }

  public static class Custom {
    public Opaque opaque;
  }

  public static class Described {
    @PreserveUnknownFields public Opaque opaque;
    public Token token;
    public java.net.URI link;
    public java.time.LocalTime at;
  }

  @Group("diagnostics.crd.converge.dev")
  @Version("v1")
  public static class CustomSerialized extends CustomResource<Custom, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("diagnostics.crd.converge.dev")
  @Version("v1")
  public static class DescribedSerialized extends CustomResource<Described, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aCustomSerializerThatDoesNotDeclareItsJsonIsAnErrorNamingTheFieldAndTheFix() {
    assertThatThrownBy(() -> CrdGenerator.generate(CustomSerialized.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("Custom.opaque (spec.opaque)")
        .hasMessageContaining(Opaque.class.getName())
        .hasMessageContaining("custom serializer")
        .hasMessageContaining("@PreserveUnknownFields")
        .hasMessageContaining("acceptJsonFormatVisitor");
  }

  @Test
  void whatTheSerializerDeclaresIsWhatTheSchemaSays() {
    assertThat(
            SchemaTrees.spec(DescribedSerialized.class, "opaque")
                .get("x-kubernetes-preserve-unknown-fields")
                .asBoolean())
        .isTrue();
    assertThat(SchemaTrees.spec(DescribedSerialized.class, "token").get("type").asString())
        .as("a @JsonValue String is a string, not an object of the class's fields")
        .isEqualTo("string");
    assertThat(SchemaTrees.spec(DescribedSerialized.class, "link").get("type").asString())
        .isEqualTo("string");
    assertThat(SchemaTrees.spec(DescribedSerialized.class, "at").get("type").asString())
        .isEqualTo("string");
  }

  // ---- versions with different schemas and no conversion

  public static class OldShape {
    public String size;
  }

  public static class NewShape {
    public Integer size;
  }

  @Group("shapes.crd.converge.dev")
  @Kind("Shape")
  @Plural("shapes")
  @Version(value = "v1alpha1", storage = false)
  public static class ShapeV1Alpha1 extends CustomResource<OldShape, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("shapes.crd.converge.dev")
  @Kind("Shape")
  @Plural("shapes")
  @Version(value = "v1alpha1", storage = false, served = false)
  public static class HiddenShapeV1Alpha1 extends CustomResource<OldShape, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("shapes.crd.converge.dev")
  @Kind("Shape")
  @Plural("shapes")
  @Version("v1")
  public static class ShapeV1 extends CustomResource<NewShape, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void versionsWithDifferentSchemasAndNoConversionAreAWarningWithMigrationGuidance() {
    List<String> warnings =
        CrdGenerator.generate(ShapeV1Alpha1.class, ShapeV1.class).get(0).warnings();
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains(
            "the schema of v1alpha1 (ShapeV1Alpha1) differs from the storage version v1 (ShapeV1)",
            "does not generate conversion",
            "Keep the schemas identical",
            "served = false",
            "kubectl replace",
            "status.storedVersions");
  }

  @Test
  void aVersionThatIsNotServedNeedsNoConversion() {
    assertThat(CrdGenerator.generate(HiddenShapeV1Alpha1.class, ShapeV1.class).get(0).warnings())
        .isEmpty();
  }
}
