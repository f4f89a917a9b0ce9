package dev.converge.crd.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.CrdGenerationException;
import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GenerationErrorsTest;
import dev.converge.crd.sample.Widget;
import dev.converge.crd.sample.Workload;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What Converge's generator does that fabric8's crd-generator 8.0 does not, shown on the same
 * classes. crd-gen/README.md's comparison table lists exactly these.
 */
class Fabric8GapsTest {

  private static JsonNode fabric8Spec(String property) {
    return Fabric8ComparisonTest.fabric8(Widget.class)
        .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/" + property);
  }

  private static JsonNode convergeSpec(String property) {
    return Fabric8ComparisonTest.converge(Widget.class)
        .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/" + property);
  }

  /** Simple names of the annotations fabric8 8.0 offers for CRD generation. */
  private static List<String> fabric8AnnotationNames() throws IOException, URISyntaxException {
    Path jar =
        Path.of(
            io.fabric8.generator.annotation.Required.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream()
          .map(entry -> entry.getName())
          .filter(name -> name.endsWith(".class") && !name.contains("$"))
          .map(name -> name.substring(name.lastIndexOf('/') + 1, name.length() - ".class".length()))
          .toList();
    }
  }

  @Test
  void fabric8HasNoAnnotationForListTypeMapTypeOneOfIntOrStringOrRecursion() throws Exception {
    List<String> names = fabric8AnnotationNames();
    assertThat(names)
        .as("the jar was read")
        .contains("Required", "ValidationRule", "PrinterColumn");
    assertThat(names.stream().map(n -> n.toLowerCase(Locale.ROOT)))
        .noneMatch(
            n ->
                n.contains("listtype")
                    || n.contains("mapkey")
                    || n.contains("maptype")
                    || n.contains("oneof")
                    || n.contains("anyof")
                    || n.contains("intorstring")
                    || n.contains("recursion")
                    || n.contains("depth"));
  }

  @Test
  void listTypeMapTypeAndOneOfComeOnlyFromConverge() {
    assertThat(convergeSpec("ports").get("x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(fabric8Spec("ports").has("x-kubernetes-list-type")).isFalse();
    assertThat(convergeSpec("limits").get("x-kubernetes-map-type").asString()).isEqualTo("atomic");
    assertThat(convergeSpec("endpoint").has("oneOf")).isTrue();
    assertThat(fabric8Spec("endpoint").has("oneOf")).isFalse();
  }

  @Test
  void cyclesFailInFabric8AndAreCutOffOrReportedByConverge() {
    assertThatThrownBy(() -> Fabric8Crds.generate(GenerationErrorsTest.Tree.class))
        .as("fabric8 cannot generate a recursive type and offers no cut-off")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cyclic reference");
    assertThatThrownBy(() -> CrdGenerator.generate(GenerationErrorsTest.Tree.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("TreeNode.children");
    assertThat(CrdGenerator.generate(GenerationErrorsTest.LimitedTree.class)).hasSize(1);
  }

  @Test
  void jakartaValidationIsReadOnlyByConverge() {
    assertThat(convergeSpec("revision").get("pattern").asString()).isEqualTo("^v[0-9]+$");
    assertThat(fabric8Spec("revision").has("pattern")).isFalse();
    assertThat(convergeSpec("weight").has("minimum")).isTrue();
    assertThat(fabric8Spec("weight").has("minimum")).isFalse();
  }

  @Test
  void kubernetesObjectsAreEmbeddedResourcesOnlyInConverge() {
    assertThat(convergeSpec("template").get("x-kubernetes-embedded-resource").asBoolean()).isTrue();
    assertThat(fabric8Spec("template").has("x-kubernetes-embedded-resource")).isFalse();
    assertThat(fabric8Spec("template").at("/properties/metadata/properties").has("managedFields"))
        .as("fabric8 inlines the whole ConfigMap model")
        .isTrue();
  }

  @Test
  void floatAndDoubleFormatsOnlyInConverge() {
    assertThat(convergeSpec("small").get("format").asString()).isEqualTo("float");
    assertThat(convergeSpec("ratio").get("format").asString()).isEqualTo("double");
    assertThat(fabric8Spec("small").has("format")).isFalse();
    assertThat(fabric8Spec("ratio").has("format")).isFalse();
  }

  @Test
  void anEmbeddedPodTemplateMergesLikeADeploymentOnlyInConverge() {
    String containers =
        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/template/properties/spec"
            + "/properties/containers";
    JsonNode ours = Fabric8ComparisonTest.converge(Workload.class).at(containers);
    JsonNode theirs = Fabric8ComparisonTest.fabric8(Workload.class).at(containers);
    assertThat(ours.get("x-kubernetes-list-type").asString()).isEqualTo("map");
    assertThat(ours.at("/items/properties/ports/items/properties/protocol/default").asString())
        .isEqualTo("TCP");
    assertThat(theirs.isMissingNode()).as("fabric8 expands the pod template").isFalse();
    assertThat(theirs.has("x-kubernetes-list-type")).isFalse();
    assertThat(theirs.at("/items/properties/ports/items/properties/protocol").has("default"))
        .isFalse();
  }

  @Test
  void quantityPatternAndSetsOnlyInConverge() {
    JsonNode memory =
        Fabric8ComparisonTest.converge(Widget.class)
            .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/memory");
    assertThat(memory.has("pattern")).isTrue();
    assertThat(fabric8Spec("memory").has("pattern")).isFalse();
    JsonNode names =
        Fabric8ComparisonTest.converge(Gizmo.class)
            .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/uniqueNames");
    assertThat(names.get("x-kubernetes-list-type").asString()).isEqualTo("set");
    assertThat(
            Fabric8ComparisonTest.fabric8(Gizmo.class)
                .at(
                    "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/uniqueNames")
                .has("x-kubernetes-list-type"))
        .isFalse();
  }
}
