package dev.converge.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceTreeTest {

  private static GenericKubernetesResource widget() {
    GenericKubernetesResource widget = new GenericKubernetesResource();
    widget.setApiVersion("widgets.converge.dev/v1");
    widget.setKind("Widget");
    widget.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("w").build());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("sizes", new ArrayList<>(List.of(1, 2)));
    spec.put("empty", new LinkedHashMap<>());
    spec.put("none", new ArrayList<>());
    spec.put("nested", new LinkedHashMap<>(Map.of("color", "blue")));
    widget.setAdditionalProperty("spec", spec);
    return widget;
  }

  @Test
  @SuppressWarnings("unchecked")
  void aTreeCanBeChangedAtEveryLevelWithoutChangingTheObject() {
    GenericKubernetesResource widget = widget();

    Map<String, Object> tree = ResourceTree.of(widget);
    Map<String, Object> spec = (Map<String, Object>) tree.get("spec");
    ((List<Object>) spec.get("sizes")).add(3);
    ((Map<String, Object>) spec.get("empty")).put("added", true);
    ((List<Object>) spec.get("none")).add("added");
    ((Map<String, Object>) spec.get("nested")).put("color", "red");
    ((Map<String, Object>) tree.get("metadata")).put("name", "other");
    tree.remove("kind");

    Map<String, Object> original =
        (Map<String, Object>) widget.getAdditionalProperties().get("spec");
    assertThat(original.get("sizes")).isEqualTo(List.of(1, 2));
    assertThat((Map<String, Object>) original.get("empty")).isEmpty();
    assertThat((List<Object>) original.get("none")).isEmpty();
    assertThat(original.get("nested")).isEqualTo(Map.of("color", "blue"));
    assertThat(widget.getMetadata().getName()).isEqualTo("w");
    assertThat(ResourceTree.of(widget))
        .containsEntry("kind", "Widget")
        .containsEntry(
            "spec",
            Map.of(
                "sizes", List.of(1, 2),
                "empty", Map.of(),
                "none", List.of(),
                "nested", Map.of("color", "blue")));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aTreeOfAValueIsItsOwnEvenWhenTheValueIsATreeAlready() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("inner", new LinkedHashMap<>(Map.of("a", 1)));

    Map<String, Object> tree = (Map<String, Object>) ResourceTree.treeOf(value);
    ((Map<String, Object>) tree.get("inner")).put("b", 2);

    assertThat(value.get("inner")).isEqualTo(Map.of("a", 1));

    ManagedFieldsEntry entry = new ManagedFieldsEntry();
    entry.setManager("app-operator");
    List<Object> entries = (List<Object>) ResourceTree.treeOf(List.of(entry));
    ((Map<String, Object>) entries.get(0)).put("operation", "Apply");
    assertThat(entries.get(0)).isEqualTo(Map.of("manager", "app-operator", "operation", "Apply"));
    assertThat(entry.getOperation()).isNull();
  }
}
