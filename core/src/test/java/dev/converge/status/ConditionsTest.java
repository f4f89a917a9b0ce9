package dev.converge.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.ManualClock;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  /** A clock the test moves by hand. */
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T10:00:00.750Z"));

  private final Conditions conditions = new Conditions(clock);

  @Test
  void newConditionIsStampedWithTheClockInWholeSeconds() {
    List<Condition> list =
        conditions.set(null, "Ready", ConditionStatus.FALSE, "Pending", "waiting for pods", 3);

    assertThat(list)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getType()).isEqualTo("Ready");
              assertThat(c.getStatus()).isEqualTo("False");
              assertThat(c.getReason()).isEqualTo("Pending");
              assertThat(c.getMessage()).isEqualTo("waiting for pods");
              assertThat(c.getObservedGeneration()).isEqualTo(3L);
              assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
            });
  }

  @Test
  void reasonAndMessageChangesKeepTheTransitionTime() {
    List<Condition> first =
        conditions.set(List.of(), "Ready", ConditionStatus.FALSE, "Pending", "0 of 3 ready", 1);
    clock.advance(Duration.ofMinutes(5));

    List<Condition> second =
        conditions.set(first, "Ready", ConditionStatus.FALSE, "Scaling", "2 of 3 ready", 2);

    Condition c = Conditions.find(second, "Ready").orElseThrow();
    assertThat(c.getReason()).isEqualTo("Scaling");
    assertThat(c.getMessage()).isEqualTo("2 of 3 ready");
    assertThat(c.getObservedGeneration()).isEqualTo(2L);
    assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
  }

  @Test
  void statusFlipMovesTheTransitionTime() {
    List<Condition> first =
        conditions.set(List.of(), "Ready", ConditionStatus.FALSE, "Pending", "", 1);
    clock.advance(Duration.ofMinutes(5));

    List<Condition> flipped =
        conditions.set(first, "Ready", ConditionStatus.TRUE, "AllReady", "3 of 3 ready", 1);
    clock.advance(Duration.ofMinutes(1));
    List<Condition> same =
        conditions.set(flipped, "Ready", ConditionStatus.TRUE, "AllReady", "3 of 3 ready", 1);

    assertThat(Conditions.lastTransitionTime(flipped, "Ready"))
        .contains(Instant.parse("2026-11-29T10:05:00Z"));
    assertThat(same).isEqualTo(flipped);
    assertThat(Conditions.isTrue(same, "Ready")).isTrue();
    assertThat(Conditions.isFalse(same, "Ready")).isFalse();
  }

  @Test
  void setNeverModifiesTheListPassedIn() {
    List<Condition> original =
        new ArrayList<>(
            conditions.set(List.of(), "Ready", ConditionStatus.FALSE, "Pending", "", 1));
    Condition before = original.get(0).toBuilder().build();
    clock.advance(Duration.ofMinutes(1));

    conditions.set(original, "Ready", ConditionStatus.TRUE, "Done", "", 2);

    assertThat(original).containsExactly(before);
  }

  @Test
  void otherConditionsKeepTheirOrderAndValues() {
    List<Condition> list =
        conditions.set(List.of(), "Available", ConditionStatus.TRUE, "Up", "", 1);
    list = conditions.set(list, "Progressing", ConditionStatus.TRUE, "Rolling", "", 1);
    list = conditions.set(list, "Degraded", ConditionStatus.FALSE, "Healthy", "", 1);
    List<Condition> snapshot = List.copyOf(list);
    clock.advance(Duration.ofMinutes(1));

    list = conditions.set(list, "Progressing", ConditionStatus.FALSE, "Done", "", 2);

    assertThat(list)
        .extracting(Condition::getType)
        .containsExactly("Available", "Progressing", "Degraded");
    assertThat(list.get(0)).isEqualTo(snapshot.get(0));
    assertThat(list.get(2)).isEqualTo(snapshot.get(2));
    assertThat(Conditions.remove(list, "Progressing"))
        .extracting(Condition::getType)
        .containsExactly("Available", "Degraded");
  }

  @Test
  void observedGenerationComesFromThePrimary() {
    var primary =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("p")
            .withGeneration(7L)
            .endMetadata()
            .build();

    List<Condition> list =
        conditions.set(List.of(), primary, "Ready", ConditionStatus.TRUE, "Done", "ok");

    assertThat(list.get(0).getObservedGeneration()).isEqualTo(7L);
  }

  @Test
  void invalidReasonIsRefusedWithTheRule() {
    assertThatThrownBy(
            () -> conditions.set(List.of(), "Ready", ConditionStatus.FALSE, "not ready yet", "", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reason of condition Ready")
        .hasMessageContaining("CamelCase");
    assertThatThrownBy(() -> conditions.set(List.of(), " ", ConditionStatus.FALSE, "X", "", 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void absentConditionHasNoStatus() {
    assertThat(Conditions.statusOf(null, "Ready")).isEmpty();
    assertThat(Conditions.isTrue(List.of(), "Ready")).isFalse();
    assertThat(Conditions.lastTransitionTime(List.of(), "Ready")).isEmpty();
  }

  @Test
  void anOverlongMessageIsCutToTheServersLimitAndSaysSo() {
    String message = "image reference '" + "x".repeat(100_000) + "' is not valid";
    String stored = Conditions.bounded(message);
    org.assertj.core.api.Assertions.assertThat(stored.length()).isLessThanOrEqualTo(32_768);
    org.assertj.core.api.Assertions.assertThat(stored)
        .startsWith("image reference 'xxx")
        .contains("more characters cut");
    org.assertj.core.api.Assertions.assertThat(Conditions.bounded("short")).isEqualTo("short");
  }
}
