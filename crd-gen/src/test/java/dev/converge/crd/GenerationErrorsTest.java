package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.ListType;
import dev.converge.crd.annotation.MapType;
import dev.converge.crd.annotation.PrinterColumn;
import dev.converge.crd.annotation.RecursionLimit;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Shapes Kubernetes cannot express fail with the Java member, the path and the fix; cycles never
 * overflow.
 */
public class GenerationErrorsTest {

  // ---- cycles

  public static class TreeNode {
    public String label;
    public List<TreeNode> children;
  }

  public static class Forest {
    public TreeNode root;
  }

  @Group("trees.crd.converge.dev")
  @Version("v1")
  public static class Tree extends CustomResource<Forest, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class LimitedNode {
    public String label;

    @RecursionLimit(depth = 2)
    public List<LimitedNode> children;
  }

  public static class LimitedForest {
    public LimitedNode root;
  }

  @Group("trees.crd.converge.dev")
  @Version("v1")
  public static class LimitedTree extends CustomResource<LimitedForest, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class Ping {
    public Pong pong;
  }

  public static class Pong {
    public Ping ping;
  }

  @Group("pingpong.crd.converge.dev")
  @Version("v1")
  public static class PingPong extends CustomResource<Ping, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aCycleIsAClearErrorNamingTheFieldAndTheFix() {
    assertThatThrownBy(() -> CrdGenerator.generate(Tree.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("TreeNode.children")
        .hasMessageContaining("spec.root.children[*]")
        .hasMessageContaining("TreeNode -> TreeNode")
        .hasMessageContaining("@RecursionLimit");
  }

  @Test
  void anIndirectCycleNamesEveryTypeOnIt() {
    assertThatThrownBy(() -> CrdGenerator.generate(PingPong.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("Pong.ping")
        .hasMessageContaining("Ping -> Pong -> Ping");
  }

  @Test
  void aRecursionLimitExpandsThatManyLevelsThenAcceptsAnyObject() {
    JsonNode root = SchemaTrees.spec(LimitedTree.class, "root");
    JsonNode level1 = root.at("/properties/children/items");
    JsonNode level2 = level1.at("/properties/children/items");
    JsonNode level3 = level2.at("/properties/children/items");
    assertThat(level1.at("/properties/label/type").asString()).isEqualTo("string");
    assertThat(level2.at("/properties/label/type").asString()).isEqualTo("string");
    assertThat(level3.get("type").asString()).isEqualTo("object");
    assertThat(level3.get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
    assertThat(level3.has("properties")).isFalse();
    SchemaTrees.assertStructural(SchemaTrees.schema(LimitedTree.class), "LimitedTree");
  }

  // ---- unsupported shapes

  public static class Entry {
    public String key;
    public String value;
  }

  public static class BadListMap {
    @ListType(value = ListType.Kind.MAP, keys = "key")
    public List<Entry> entries;
  }

  @Group("bad.crd.converge.dev")
  @Version("v1")
  public static class BadListMapResource extends CustomResource<BadListMap, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class BadMapType {
    @MapType(MapType.Kind.ATOMIC)
    public String text;
  }

  @Group("bad.crd.converge.dev")
  @Version("v1")
  public static class BadMapTypeResource extends CustomResource<BadMapType, Void> {
    private static final long serialVersionUID = 1L;
  }

  public static class BadDefault {
    @Default("ten")
    public int count;
  }

  @Group("bad.crd.converge.dev")
  @Version("v1")
  public static class BadDefaultResource extends CustomResource<BadDefault, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Group("bad.crd.converge.dev")
  @Version("v1")
  @PrinterColumn(name = "Count", type = "int", jsonPath = ".spec.count")
  public static class BadColumnResource extends CustomResource<Entry, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Version("v1")
  public static class NoGroup extends CustomResource<Entry, Void> {
    private static final long serialVersionUID = 1L;
  }

  public interface Shape {
    double area();
  }

  public static class Drawing {
    public List<Shape> shapes;
    @dev.converge.crd.annotation.PreserveUnknownFields public Shape anyShape;
  }

  @Group("bad.crd.converge.dev")
  @Version("v1")
  public static class DrawingResource extends CustomResource<Drawing, Void> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void anAbstractTypeIsRefusedUnlessItPreservesUnknownFields() {
    assertThatThrownBy(() -> CrdGenerator.generate(DrawingResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("Drawing.shapes (spec.shapes[*])")
        .hasMessageContaining("abstract type dev.converge.crd.GenerationErrorsTest$Shape")
        .hasMessageContaining("@PreserveUnknownFields");
  }

  @Test
  void listMapKeyMustBeRequiredOrDefaulted() {
    assertThatThrownBy(() -> CrdGenerator.generate(BadListMapResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("BadListMap.entries (spec.entries)")
        .hasMessageContaining("'key'")
        .hasMessageContaining("@Required or @Default");
  }

  @Test
  void mapTypeOnAStringIsRefused() {
    assertThatThrownBy(() -> CrdGenerator.generate(BadMapTypeResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("BadMapType.text (spec.text)")
        .hasMessageContaining("@MapType");
  }

  @Test
  void aDefaultThatIsNotJsonNamesTheField() {
    assertThatThrownBy(() -> CrdGenerator.generate(BadDefaultResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("BadDefault.count")
        .hasMessageContaining("@Default(\"ten\")");
  }

  @Test
  void printerColumnTypeIsChecked() {
    assertThatThrownBy(() -> CrdGenerator.generate(BadColumnResource.class))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("'Count'")
        .hasMessageContaining("integer, number, string, boolean or date");
  }

  @Test
  void classesMustBeAnnotatedCustomResources() {
    assertThatThrownBy(() -> CrdGenerator.generate(NoGroup.class))
        .hasMessageContaining("NoGroup")
        .hasMessageContaining("@Group");
    assertThatThrownBy(() -> CrdGenerator.generate(Entry.class))
        .hasMessageContaining("Entry is not a custom resource");
  }
}
