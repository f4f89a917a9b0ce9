package dev.converge.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.it.TestCrds;
import dev.converge.status.internal.RecomputingStatusUpdate;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ManualClock;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A status record with conditions, written through {@code Context.updateStatus}'s recomputing
 * update on a real API server: the wanted conditions land with the generation, survive the round
 * trip, keep their transition time while their status holds, and are folded into a fresh read when
 * another writer changed the status in between.
 */
@ExtendWith(LocalClusterExtension.class)
class WantedConditionsIT {

  static final String GROUP = "wantedconditionsit.converge.dev";

  /** The status as an operator writes it: a record whose conditions component is the interface. */
  public record GadgetStatus(String phase, List<Condition> conditions, Long observedGeneration)
      implements HasConditions {}

  @Group(GROUP)
  @Version("v1")
  @Kind("Widget")
  public static class Gadget extends CustomResource<Map<String, Object>, GadgetStatus>
      implements Namespaced {}

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T08:00:00Z"));
  private final Conditions conditions = new Conditions(clock);

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.install(admin, WidgetCrd.inGroup(GROUP));
    }
  }

  @AfterAll
  static void removeCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.uninstall(admin, WidgetCrd.inGroup(GROUP));
    }
  }

  private static Gadget create(KubernetesClient client, String name) {
    Gadget g = new Gadget();
    g.getMetadata().setName(name);
    g.setSpec(Map.of("size", 1));
    return client.resource(g).create();
  }

  private static Condition stored(KubernetesClient client, String name, String type) {
    Gadget live = client.resources(Gadget.class).withName(name).get();
    return Conditions.find(live.getStatus().conditions(), type).orElseThrow();
  }

  @Test
  void conditionsAndGenerationRoundTripAndTheTransitionTimeMovesOnlyOnAFlip(
      KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    Gadget read = create(client, "rolling");

    StatusOutcome<Gadget> first =
        update.update(
            read,
            conditions
                .want("Ready", ConditionStatus.FALSE, "RollingOut", "0 of 2 pods are ready")
                .status((list, generation) -> new GadgetStatus("Pending", list, generation)));
    clock.advance(Duration.ofMinutes(1));
    StatusOutcome<Gadget> second =
        update.update(
            first.object(),
            conditions
                .want("Ready", ConditionStatus.FALSE, "RollingOut", "1 of 2 pods are ready")
                .status((list, generation) -> new GadgetStatus("Pending", list, generation)));

    assertThat(first).isInstanceOf(StatusOutcome.Written.class);
    assertThat(second).isInstanceOf(StatusOutcome.Written.class);
    Gadget live = client.resources(Gadget.class).withName("rolling").get();
    assertThat(live.getStatus().observedGeneration()).isEqualTo(1L);
    Condition ready = stored(client, "rolling", "Ready");
    assertThat(ready.getMessage()).isEqualTo("1 of 2 pods are ready");
    assertThat(ready.getObservedGeneration()).isEqualTo(1L);
    assertThat(ready.getLastTransitionTime()).isEqualTo("2026-12-01T08:00:00Z");

    clock.advance(Duration.ofMinutes(1));
    update.update(
        second.object(),
        conditions
            .want("Ready", ConditionStatus.TRUE, "AllReplicasReady", "2 of 2 pods are ready")
            .status((list, generation) -> new GadgetStatus("Running", list, generation)));
    assertThat(stored(client, "rolling", "Ready").getLastTransitionTime())
        .isEqualTo("2026-12-01T08:02:00Z");
  }

  @Test
  void aStaleReadIsRecomputedAndKeepsTheConditionAnotherWriterAdded(KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    Gadget stale = create(client, "raced");
    Gadget other = client.resources(Gadget.class).withName("raced").get();
    other.setStatus(
        new GadgetStatus(
            null,
            conditions.set(List.of(), "Scheduled", ConditionStatus.TRUE, "ByOther", "placed", 1L),
            null));
    client.resource(other).updateStatus();

    StatusOutcome<Gadget> outcome =
        update.update(
            stale,
            conditions
                .want("Ready", ConditionStatus.TRUE, "AllReplicasReady", "1 of 1 pods are ready")
                .status((list, generation) -> new GadgetStatus("Running", list, generation)));

    assertThat(outcome).isInstanceOf(StatusOutcome.Written.class);
    Gadget live = client.resources(Gadget.class).withName("raced").get();
    assertThat(live.getStatus().conditions())
        .extracting(Condition::getType)
        .containsExactly("Scheduled", "Ready");
    assertThat(live.getStatus().phase()).isEqualTo("Running");
  }
}
