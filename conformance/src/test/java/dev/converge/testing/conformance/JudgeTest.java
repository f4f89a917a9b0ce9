package dev.converge.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.conformance.internal.JsonValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judge's comparisons on trees written out by hand (the server's answers are checked in the
 * ITs).
 */
class JudgeTest {

  @Test
  void numberLikeStringsAreComparedAsTheyAre() {
    Map<String, Object> desired = Map.of("data", Map.of("version", "1.10", "code", "10"));
    Map<String, Object> fresh = desired;
    Map<String, Object> live =
        Map.of("data", Map.of("version", "1.1", "code", "010", "foreign", "x"));

    assertThat(Judge.holdsDesired(desired, live, fresh, List.of()))
        .hasSize(2)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "data.version: desired \"1.10\", a fresh create holds \"1.10\", live holds \"1.1\""));
    assertThat(Judge.holdsDesired(desired, fresh, fresh, List.of())).isEmpty();
  }

  @Test
  void numbersCompareByValueAndEmptyStringsAreValues() {
    assertThat(JsonValue.equal(1, 1L)).isTrue();
    assertThat(JsonValue.equal(1.0, 1)).isTrue();
    assertThat(JsonValue.equal("", null)).isFalse();
    assertThat(
            Judge.holdsDesired(
                Map.of("metadata", Map.of("labels", Map.of("tier", ""))),
                Map.of("metadata", Map.of("labels", Map.of())),
                Map.of("metadata", Map.of("labels", Map.of("tier", ""))),
                List.of()))
        .containsExactly(
            "metadata.labels.tier: desired \"\", a fresh create holds \"\", live holds absent");
  }

  @Test
  void quantitiesCompareByAmountOnlyWhereTheApiTypesThemAsQuantity() {
    Map<String, Object> desired =
        Map.of(
            "spec",
            Map.of(
                "containers",
                List.of(
                    Map.of(
                        "resources",
                        Map.of("requests", Map.of("memory", "209715200", "cpu", "0.5"))))));
    Map<String, Object> live =
        Map.of(
            "spec",
            Map.of(
                "containers",
                List.of(
                    Map.of(
                        "resources",
                        Map.of("requests", Map.of("memory", "200Mi", "cpu", "500m"))))));
    assertThat(Judge.holdsDesired(desired, live, desired, List.of())).isEmpty();

    Map<String, Object> notQuantities =
        Map.of("spec", Map.of("limits", Map.of("cpu", "1.10")), "data", Map.of("memory", "1.10"));
    Map<String, Object> liveText =
        Map.of("spec", Map.of("limits", Map.of("cpu", "1.1")), "data", Map.of("memory", "1.1"));
    assertThat(Judge.holdsDesired(notQuantities, liveText, notQuantities, List.of())).hasSize(2);
  }

  @Test
  void allocatedFieldsNeedOnlyBePresentAndForeignFinalizersAreAllowed() {
    Map<String, Object> desired =
        Map.of(
            "metadata",
            Map.of("finalizers", List.of("ours")),
            "spec",
            Map.of("clusterIP", "", "ports", List.of(Map.of("port", 80))));
    Map<String, Object> fresh =
        Map.of(
            "metadata",
            Map.of("finalizers", List.of("ours")),
            "spec",
            Map.of(
                "clusterIP", "10.0.0.7", "ports", List.of(Map.of("port", 80, "nodePort", 30001))));
    Map<String, Object> live =
        Map.of(
            "metadata",
            Map.of("finalizers", List.of("theirs", "ours")),
            "spec",
            Map.of(
                "clusterIP", "10.0.0.9", "ports", List.of(Map.of("port", 80, "nodePort", 30002))));

    assertThat(Judge.holdsDesired(desired, live, fresh, List.of("theirs"))).isEmpty();
    assertThat(Judge.holdsDesired(desired, live, fresh, List.of()))
        .singleElement()
        .asString()
        .startsWith("metadata.finalizers");
  }

  @Test
  void listsAreComparedWholeAndInOrder() {
    Map<String, Object> desired =
        Map.of("spec", Map.of("tolerations", List.of(Map.of("key", "a"), Map.of("key", "b"))));
    Map<String, Object> live =
        Map.of("spec", Map.of("tolerations", List.of(Map.of("key", "b"), Map.of("key", "a"))));
    assertThat(Judge.holdsDesired(desired, live, desired, List.of())).hasSize(1);
  }

  @Test
  void aFieldAnotherActorChangedAndDesiredDroppedIsExcusedInsideAList() {
    Map<String, Object> desired = Map.of("spec", Map.of("ports", List.of(Map.of("port", 7000))));
    Map<String, Object> fresh =
        Map.of("spec", Map.of("ports", List.of(Map.of("port", 7000, "targetPort", 7000))));
    Map<String, Object> live =
        Map.of("spec", Map.of("ports", List.of(Map.of("port", 7000, "targetPort", 7003))));
    assertThat(Judge.holdsDesired(desired, live, fresh, List.of())).hasSize(1);
    assertThat(
            Judge.holdsDesired(
                desired, live, fresh, List.of(), List.of(FieldPath.of("spec.ports[0].targetPort"))))
        .isEmpty();
  }

  @Test
  void droppedFieldsMustHoldWhatAFreshCreateHolds() {
    Map<String, Object> before =
        Map.of("spec", Map.of("replicas", 3, "strategy", Map.of("type", "Recreate")));
    Map<String, Object> after = Map.of("spec", Map.of("strategy", Map.of("type", "Recreate")));
    Map<String, Object> fresh =
        Map.of("spec", Map.of("replicas", 1, "strategy", Map.of("type", "Recreate")));

    assertThat(
            Judge.removedGone(
                before, after, Map.of("spec", Map.of("replicas", 1)), fresh, List.of()))
        .isEmpty();
    assertThat(
            Judge.removedGone(
                before, after, Map.of("spec", Map.of("replicas", 3)), fresh, List.of()))
        .containsExactly(
            "spec.replicas: dropped from desired, a fresh create holds 1, live holds 3");
    assertThat(
            Judge.removedGone(
                before,
                after,
                Map.of("spec", Map.of("replicas", 3)),
                fresh,
                List.of(FieldPath.of("spec.replicas"))))
        .isEmpty();
  }

  @Test
  void expectationsNameWhatLiveHolds() {
    Map<String, Object> live =
        Map.of("data", Map.of("k", "1.1"), "metadata", Map.of("finalizers", List.of("a")));
    assertThat(Expectation.equal("data[\"k\"]", "1.10").check(live))
        .contains("data.k: expected \"1.10\", live holds \"1.1\"");
    assertThat(Expectation.absent("data.k").check(live))
        .contains("data.k: expected absent, live holds \"1.1\"");
    assertThat(Expectation.contains("metadata.finalizers", "a", "b").check(live))
        .hasValueSatisfying(m -> assertThat(m).contains("[\"b\"]"));
    assertThat(Expectation.lacks("metadata.finalizers", "b").check(live)).isEmpty();
    assertThat(Expectation.presentOtherThan("data.k", "").check(live)).isEmpty();
    assertThat(Expectation.equal("data.k", "1.10").id()).isEqualTo("data.k = \"1.10\"");
  }
}
