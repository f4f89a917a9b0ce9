package dev.converge.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.ManualClock;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class WantedConditionsTest {

  /** A status record as operators write them: its conditions component implements the interface. */
  record GadgetStatus(String phase, List<Condition> conditions, Long observedGeneration)
      implements HasConditions {}

  @Group("test.converge.dev")
  @Version("v1")
  static final class Gadget extends CustomResource<Void, GadgetStatus> implements Namespaced {
    static Gadget named(String name, long generation) {
      Gadget gadget = new Gadget();
      gadget.getMetadata().setName(name);
      gadget.getMetadata().setNamespace("ns");
      gadget.getMetadata().setGeneration(generation);
      return gadget;
    }
  }

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T10:00:00Z"));
  private final Conditions conditions = new Conditions(clock);

  private static Condition find(Gadget gadget, String type) {
    return Conditions.find(gadget.getStatus().conditions(), type).orElseThrow();
  }

  @Test
  void aFirstStatusGetsEveryWantedConditionInOrderAndTheGeneration() {
    Gadget gadget = Gadget.named("g", 3);
    Consumer<Gadget> compute =
        conditions
            .want("Ready", ConditionStatus.FALSE, "RollingOut", "1 of 2 ready")
            .and("ConfigResolved", ConditionStatus.TRUE, "Found", "ConfigMap g")
            .status((list, generation) -> new GadgetStatus("Pending", list, generation));

    compute.accept(gadget);

    GadgetStatus status = gadget.getStatus();
    assertThat(status.phase()).isEqualTo("Pending");
    assertThat(status.observedGeneration()).isEqualTo(3L);
    assertThat(status.conditions())
        .extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Ready", "False", "RollingOut"),
            org.assertj.core.groups.Tuple.tuple("ConfigResolved", "True", "Found"));
    assertThat(status.conditions())
        .allSatisfy(
            c -> {
              assertThat(c.getObservedGeneration()).isEqualTo(3L);
              assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
            });
  }

  @Test
  void theTransitionTimeMovesOnlyWhenAStatusFlipsAndOtherConditionsStay() {
    Gadget gadget = Gadget.named("g", 1);
    conditions
        .want("Ready", ConditionStatus.FALSE, "RollingOut", "0 of 2 ready")
        .and("Degraded", ConditionStatus.FALSE, "AsExpected", "fine")
        .<GadgetStatus, Gadget>status(
            (list, generation) -> new GadgetStatus("Pending", list, generation))
        .accept(gadget);
    clock.advance(Duration.ofMinutes(2));

    conditions
        .want("Ready", ConditionStatus.FALSE, "RollingOut", "1 of 2 ready")
        .<GadgetStatus, Gadget>status(
            (list, generation) -> new GadgetStatus("Pending", list, generation))
        .accept(gadget);
    assertThat(find(gadget, "Ready").getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
    assertThat(find(gadget, "Ready").getMessage()).isEqualTo("1 of 2 ready");
    assertThat(find(gadget, "Degraded").getReason()).as("not named, kept").isEqualTo("AsExpected");

    conditions
        .want("Ready", ConditionStatus.TRUE, "AllReplicasReady", "2 of 2 ready")
        .<GadgetStatus, Gadget>status(
            (list, generation) -> new GadgetStatus("Running", list, generation))
        .accept(gadget);
    assertThat(find(gadget, "Ready").getLastTransitionTime()).isEqualTo("2026-11-29T10:02:00Z");
  }

  @Test
  void aLaterWantOfTheSameTypeWinsAndAndJoinsTwoSets() {
    WantedConditions config =
        conditions.want("ConfigResolved", ConditionStatus.TRUE, "NoneReferenced", "none");
    List<Condition> list =
        conditions
            .want("Ready", ConditionStatus.FALSE, "Waiting", "first")
            .and("Ready", ConditionStatus.TRUE, "Done", "second")
            .and(config)
            .applyTo(null, Gadget.named("g", 7));

    assertThat(list).extracting(Condition::getType).containsExactly("Ready", "ConfigResolved");
    assertThat(list.get(0).getReason()).isEqualTo("Done");
    assertThat(list.get(1).getObservedGeneration()).isEqualTo(7L);
  }

  @Test
  void theStoredListIsNotModifiedInPlace() {
    List<Condition> stored =
        conditions.set(List.of(), "Ready", ConditionStatus.FALSE, "Waiting", "w", 1);

    List<Condition> result =
        conditions
            .want("Ready", ConditionStatus.TRUE, "Done", "d")
            .applyTo(stored, Gadget.named("g", 2));

    assertThat(stored.get(0).getStatus()).isEqualTo("False");
    assertThat(result.get(0).getStatus()).isEqualTo("True");
  }

  @Test
  void aReasonTheApiServerWouldRefuseFailsWhenSaidNotWhenWritten() {
    assertThatThrownBy(() -> conditions.want("Ready", ConditionStatus.TRUE, "all ready", "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reason of condition Ready")
        .hasMessageContaining("all ready");
    assertThatThrownBy(
            () ->
                conditions
                    .want("Ready", ConditionStatus.TRUE, "Done", "m")
                    .and(" ", ConditionStatus.TRUE, "Done", "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("type");
  }
}
