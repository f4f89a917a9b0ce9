package dev.converge.strategy.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainmentTest {

  @Test
  void fieldsTheServerDefaultedDoNotCountAsDifferences() {
    Map<String, Object> live = Map.of("spec", Map.of("replicas", 1, "revisionHistoryLimit", 10,
        "template", Map.of("spec", Map.of("containers", List.of(
            Map.of("name", "app", "image", "a:1", "terminationMessagePath", "/dev/termination-log"))))));
    Map<String, Object> desired = Map.of("spec", Map.of("replicas", 1L,
        "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "app", "image", "a:1"))))));

    assertThat(Containment.contains(live, desired)).isTrue();
  }

  @Test
  void aChangedValueOrAListOfDifferentLengthIsADifference() {
    Map<String, Object> live = Map.of("data", Map.of("a", "1"), "items", List.of("x", "y"));

    assertThat(Containment.contains(live, Map.of("data", Map.of("a", "2")))).isFalse();
    assertThat(Containment.contains(live, Map.of("data", Map.of("b", "1")))).isFalse();
    assertThat(Containment.contains(live, Map.of("items", List.of("x")))).isFalse();
    assertThat(Containment.contains(live, Map.of("items", List.of("x", "y")))).isTrue();
  }

  @Test
  void quantitiesCompareByAmountAndEmptyDesiredMapsMatchAbsentOnes() {
    assertThat(Containment.contains(Map.of("cpu", "1"), Map.of("cpu", "1000m"))).isTrue();
    assertThat(Containment.contains(Map.of("memory", "1Gi"), Map.of("memory", "1024Mi"))).isTrue();
    assertThat(Containment.contains(Map.of("memory", "1Gi"), Map.of("memory", "1G"))).isFalse();
    assertThat(Containment.contains(Map.of("image", "nginx"), Map.of("image", "nginx:1"))).isFalse();
    assertThat(Containment.contains(Map.of(), Map.of("labels", Map.of()))).isTrue();
  }

  @Test
  void secretStringDataIsComparedAsTheDataTheServerStores() {
    Map<String, Object> desired = DesiredState.of(new SecretBuilder()
        .withNewMetadata().withName("s").withResourceVersion("12").addToLabels("a", "b").endMetadata()
        .addToStringData("password", "s3cret").build());

    assertThat(desired).doesNotContainKey("stringData");
    assertThat(ResourceTree.mapAt(desired, "data").orElseThrow()).containsEntry("password", "czNjcmV0");
    assertThat(ResourceTree.mapAt(desired, "metadata").orElseThrow()).doesNotContainKey("resourceVersion");
  }

  @Test
  void zeroValuesTheServerOmitsMatchAbsentFieldsButNonZeroValuesDoNot() {
    Map<String, Object> live = Map.of("spec", Map.of("replicas", 3));

    assertThat(Containment.contains(live, Map.of("spec", Map.of("paused", false, "minReadySeconds", 0))))
        .isTrue();
    assertThat(Containment.contains(live, Map.of("spec", Map.of("paused", true)))).isFalse();
    assertThat(Containment.contains(live, Map.of("spec", Map.of("minReadySeconds", 5)))).isFalse();
    assertThat(Containment.contains(Map.of(), Map.of("spec", Map.of("hostNetwork", false)))).isTrue();
  }
}
