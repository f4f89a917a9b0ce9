package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.annotation.PrinterColumn;
import dev.converge.crd.annotation.Scale;
import dev.converge.crd.sample.Widget;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** CRD-level output: names, scope, printer columns, subresources, versions. */
public class CustomResourceDefinitionTest {

  // ---- fixtures

  public static class Config {
    public String value;
  }

  /** Cluster-scoped, no status type: no status subresource. */
  @Group("clusters.crd.converge.dev")
  @Version("v1")
  public static class ClusterSetting extends CustomResource<Config, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class ReplicatedSpec {
    @SpecReplicas public int replicas;
  }

  public static class ReplicatedStatus {
    @StatusReplicas public int replicas;
    @LabelSelector public String selector;
  }

  @Group("scale.crd.converge.dev")
  @Version("v1")
  public static class Replicated extends CustomResource<ReplicatedSpec, ReplicatedStatus> {
    private static final long serialVersionUID = 1L;
  }

  @Group("scale.crd.converge.dev")
  @Version("v1")
  @Scale(
      specReplicasPath = ".spec.count",
      statusReplicasPath = ".status.count",
      labelSelectorPath = ".status.sel")
  public static class Counted extends CustomResource<Config, Config> {
    private static final long serialVersionUID = 1L;
  }

  public static class GadgetSpecV1 {
    public String model;
    public int weight;
  }

  public static class GadgetSpecV1Alpha1 {
    public String model;
  }

  @Group("gadgets.crd.converge.dev")
  @Version(value = "v1")
  @Kind("Gadget")
  @Plural("gadgets")
  public static class GadgetV1 extends CustomResource<GadgetSpecV1, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("gadgets.crd.converge.dev")
  @Version(
      value = "v1alpha1",
      storage = false,
      deprecated = true,
      deprecationWarning = "gadgets v1alpha1 is going away")
  @Kind("Gadget")
  @Plural("gadgets")
  public static class GadgetV1Alpha1 extends CustomResource<GadgetSpecV1Alpha1, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("gadgets.crd.converge.dev")
  @Version(value = "v1beta1", served = false, storage = false)
  @Kind("Gadget")
  @Plural("gadgets")
  public static class GadgetV1Beta1 extends CustomResource<GadgetSpecV1Alpha1, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("gadgets.crd.converge.dev")
  @Version(value = "v2")
  @Kind("Gadget")
  @Plural("gadgets")
  public static class GadgetV2 extends CustomResource<GadgetSpecV1, Void> {
    private static final long serialVersionUID = 1L;
  }

  // ---- tests

  @Test
  void namesCategoriesAndScope() {
    JsonNode crd = SchemaTrees.crd(Widget.class);
    assertThat(crd.at("/apiVersion").asString()).isEqualTo("apiextensions.k8s.io/v1");
    assertThat(crd.at("/metadata/name").asString()).isEqualTo("widgets.widgets.crd.converge.dev");
    JsonNode names = crd.at("/spec/names");
    assertThat(names.get("kind").asString()).isEqualTo("Widget");
    assertThat(names.get("listKind").asString()).isEqualTo("WidgetList");
    assertThat(names.get("plural").asString()).isEqualTo("widgets");
    assertThat(names.get("singular").asString()).isEqualTo("widget");
    assertThat(texts(names.get("shortNames"))).containsExactly("wd", "wdg");
    assertThat(texts(names.get("categories"))).containsExactly("converge");
    assertThat(crd.at("/spec/scope").asString()).isEqualTo("Namespaced");
    assertThat(SchemaTrees.crd(ClusterSetting.class).at("/spec/scope").asString())
        .isEqualTo("Cluster");
  }

  @Test
  void printerColumnsWithTypesDescriptionsAndPriority() {
    JsonNode columns =
        SchemaTrees.crd(Widget.class).at("/spec/versions/0/additionalPrinterColumns");
    assertThat(columns).hasSize(3);
    assertThat(columns.get(0).get("name").asString()).isEqualTo("Size");
    assertThat(columns.get(0).get("type").asString()).isEqualTo("integer");
    assertThat(columns.get(0).get("description").asString()).isEqualTo("Requested size");
    assertThat(columns.get(1).get("priority").asInt()).isEqualTo(1);
    assertThat(columns.get(1).get("type").asString()).isEqualTo("string");
    assertThat(columns.get(2).get("type").asString()).isEqualTo("date");
  }

  public static class ColumnSpec {
    @PrinterColumn(name = "Count")
    public int count;

    @PrinterColumn(name = "Started")
    public java.time.Instant started;

    @PrinterColumn(name = "Flag", type = "string", description = "as text")
    public boolean flag;

    public ColumnNested nested;
  }

  public static class ColumnNested {
    @PrinterColumn(name = "Deep")
    public String deep;
  }

  @Group("columns.crd.converge.dev")
  @Version("v1")
  @PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
  public static class Columned extends CustomResource<ColumnSpec, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class ColumnInList {
    public List<ColumnNested> entries;
  }

  @Group("columns.crd.converge.dev")
  @Version("v1")
  public static class ColumnInListResource extends CustomResource<ColumnInList, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void printerColumnsOnFieldsTakeTheFieldsPathAndType() {
    JsonNode columns =
        SchemaTrees.crd(Columned.class).at("/spec/versions/0/additionalPrinterColumns");
    assertThat(
            columns
                .valueStream()
                .map(
                    c ->
                        c.get("name").asString()
                            + " "
                            + c.get("jsonPath").asString()
                            + " "
                            + c.get("type").asString())
                .toList())
        .containsExactly(
            "Age .metadata.creationTimestamp date",
            "Count .spec.count integer",
            "Flag .spec.flag string",
            "Deep .spec.nested.deep string",
            "Started .spec.started date");
    assertThat(columns.get(2).get("description").asString()).isEqualTo("as text");
  }

  @Test
  void aPrinterColumnInsideAListIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> CrdGenerator.generate(ColumnInListResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("ColumnNested.deep (spec.entries[*].deep)")
        .hasMessageContaining("inside a list or map");
  }

  @Test
  void statusSubresourceOnlyWithAStatusType() {
    assertThat(SchemaTrees.crd(Widget.class).at("/spec/versions/0/subresources/status").isObject())
        .isTrue();
    JsonNode cluster = SchemaTrees.crd(ClusterSetting.class).at("/spec/versions/0");
    assertThat(cluster.has("subresources")).isFalse();
    assertThat(cluster.at("/schema/openAPIV3Schema/properties").has("status")).isFalse();
  }

  @Test
  void scaleSubresourceFromFabric8FieldAnnotations() {
    JsonNode scale = SchemaTrees.crd(Replicated.class).at("/spec/versions/0/subresources/scale");
    assertThat(scale.get("specReplicasPath").asString()).isEqualTo(".spec.replicas");
    assertThat(scale.get("statusReplicasPath").asString()).isEqualTo(".status.replicas");
    assertThat(scale.get("labelSelectorPath").asString()).isEqualTo(".status.selector");
  }

  @Test
  void scaleSubresourceFromConvergeAnnotation() {
    JsonNode scale = SchemaTrees.crd(Counted.class).at("/spec/versions/0/subresources/scale");
    assertThat(scale.get("specReplicasPath").asString()).isEqualTo(".spec.count");
    assertThat(scale.get("statusReplicasPath").asString()).isEqualTo(".status.count");
    assertThat(scale.get("labelSelectorPath").asString()).isEqualTo(".status.sel");
  }

  @Test
  void severalVersionsMakeOneCrdWithOneStorageVersion() {
    List<GeneratedCrd> crds =
        CrdGenerator.generate(GadgetV1Alpha1.class, GadgetV1Beta1.class, GadgetV1.class);
    assertThat(crds).hasSize(1);
    CustomResourceDefinition crd = crds.get(0).definition();
    assertThat(crd.getSpec().getVersions())
        .extracting(v -> v.getName())
        .containsExactly("v1alpha1", "v1beta1", "v1");
    assertThat(crd.getSpec().getVersions())
        .extracting(v -> v.getStorage())
        .containsExactly(false, false, true);
    assertThat(crd.getSpec().getVersions())
        .extracting(v -> v.getServed())
        .containsExactly(true, false, true);
    assertThat(crd.getSpec().getVersions().get(0).getDeprecated()).isTrue();
    assertThat(crd.getSpec().getVersions().get(0).getDeprecationWarning())
        .isEqualTo("gadgets v1alpha1 is going away");
    assertThat(crd.getSpec().getVersions().get(2).getDeprecated()).isNull();
    JsonNode tree = SchemaTrees.crd(GadgetV1Alpha1.class, GadgetV1.class);
    assertThat(
            tree.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties")
                .propertyNames())
        .containsExactly("model");
    assertThat(
            tree.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties")
                .propertyNames())
        .containsExactlyInAnyOrder("model", "weight");
  }

  @Test
  void aClassGivenTwiceCountsOnce() {
    assertThat(
            CrdGenerator.generate(GadgetV1.class, GadgetV1.class)
                .get(0)
                .definition()
                .getSpec()
                .getVersions())
        .hasSize(1);
  }

  @Test
  void twoStorageVersionsAreRefused() {
    assertThatThrownBy(() -> CrdGenerator.generate(GadgetV1.class, GadgetV2.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("gadgets.gadgets.crd.converge.dev")
        .hasMessageContaining("exactly one storage version")
        .hasMessageContaining("storage = false");
  }

  @Test
  void differentCrdsAreSortedByName() {
    assertThat(CrdGenerator.generate(Widget.class, ClusterSetting.class))
        .extracting(GeneratedCrd::name)
        .containsExactly(
            "clustersettings.clusters.crd.converge.dev", "widgets.widgets.crd.converge.dev");
    assertThat(CrdGenerator.generate(Widget.class).get(0).resourcePath())
        .isEqualTo("META-INF/converge/crds/widgets.widgets.crd.converge.dev.yaml");
  }
}
