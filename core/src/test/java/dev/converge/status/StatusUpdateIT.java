package dev.converge.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.it.TestCrds;
import dev.converge.status.StatusWriterIT.Widget;
import dev.converge.status.StatusWriterIT.WidgetSpec;
import dev.converge.status.StatusWriterIT.WidgetStatus;
import dev.converge.status.internal.RecomputingStatusUpdate;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What {@code Context.updateStatus} does on a real API server: the status a reconciler computes is
 * written only when it differs, a write based on a stale read is recomputed from a fresh read
 * (keeping what another writer added meanwhile), and a deleted, replaced or re-specified object is
 * done.
 */
@ExtendWith(LocalClusterExtension.class)
class StatusUpdateIT {

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.install(admin, WidgetCrd.inGroup(StatusWriterIT.GROUP));
    }
  }

  @AfterAll
  static void removeCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.uninstall(admin, WidgetCrd.inGroup(StatusWriterIT.GROUP));
    }
  }

  private static Widget create(KubernetesClient client, String name) {
    Widget w = new Widget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setSize(1);
    return client.resource(w).create();
  }

  /** The status a reconciler would compute: its own condition added to whatever is there. */
  private static void ready(Widget w, AtomicInteger runs) {
    runs.incrementAndGet();
    WidgetStatus status = w.getStatus() == null ? new WidgetStatus() : w.getStatus();
    List<io.fabric8.kubernetes.api.model.Condition> conditions =
        new ArrayList<>(Conditions.remove(status.getConditions(), "Ready"));
    conditions.add(
        new ConditionBuilder()
            .withType("Ready")
            .withStatus("True")
            .withReason("Done")
            .withMessage("")
            .withLastTransitionTime("2026-12-01T06:00:00Z")
            .build());
    status.setConditions(conditions);
    status.setPhase("Running");
    status.setObservedGeneration(w.getMetadata().getGeneration());
    w.setStatus(status);
  }

  @Test
  void writtenOnceThenNoRequestWhileNothingDiffers(KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    AtomicInteger runs = new AtomicInteger();
    Widget read = create(client, "steady");

    StatusOutcome<Widget> first = update.update(read, w -> ready(w, runs));
    StatusOutcome<Widget> second = update.update(first.object(), w -> ready(w, runs));

    assertThat(first).isInstanceOf(StatusOutcome.Written.class);
    assertThat(second).isInstanceOf(StatusOutcome.Unchanged.class);
    Widget live = client.resources(Widget.class).withName("steady").get();
    assertThat(live.getMetadata().getResourceVersion())
        .isEqualTo(first.object().getMetadata().getResourceVersion());
    assertThat(live.getStatus().getPhase()).isEqualTo("Running");
  }

  @Test
  void aStaleReadIsRecomputedFromAFreshOneAndKeepsTheOtherWritersCondition(
      KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    AtomicInteger runs = new AtomicInteger();
    Widget stale = create(client, "raced");
    // Another controller adds its own condition after our read.
    Widget other = client.resources(Widget.class).withName("raced").get();
    other.setStatus(new WidgetStatus());
    other
        .getStatus()
        .setConditions(
            List.of(
                new ConditionBuilder()
                    .withType("Scheduled")
                    .withStatus("True")
                    .withReason("ByOther")
                    .withMessage("")
                    .withLastTransitionTime("2026-12-01T05:00:00Z")
                    .build()));
    client.resource(other).updateStatus();

    StatusOutcome<Widget> outcome = update.update(stale, w -> ready(w, runs));

    assertThat(outcome).isInstanceOf(StatusOutcome.Written.class);
    assertThat(runs).as("computed on the stale read, then again on the fresh one").hasValue(2);
    Widget live = client.resources(Widget.class).withName("raced").get();
    assertThat(live.getStatus().getConditions())
        .extracting(c -> c.getType())
        .containsExactly("Scheduled", "Ready");
    assertThat(stale.getStatus()).as("the object as read is not modified").isNull();
  }

  @Test
  void anObjectDeletedSinceTheReadIsDone(KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    Widget read = create(client, "gone");
    client.resource(read).withGracePeriod(0).delete();
    org.awaitility.Awaitility.await()
        .until(() -> client.resources(Widget.class).withName("gone").get() == null);

    StatusOutcome<Widget> outcome = update.update(read, w -> ready(w, new AtomicInteger()));

    assertThat(outcome).isInstanceOf(StatusOutcome.Gone.class);
    assertThat(outcome.written()).isFalse();
  }

  @Test
  void anObjectReplacedSinceTheReadIsDoneAndTheNewOneIsNotWritten(KubernetesClient client) {
    List<String> evidence = new ArrayList<>();
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(
            client, StatusWriter.create(client), (read, what) -> evidence.add(what));
    Widget read = create(client, "reborn");
    client.resource(read).withGracePeriod(0).delete();
    org.awaitility.Awaitility.await()
        .until(() -> client.resources(Widget.class).withName("reborn").get() == null);
    // A new object of the same name, at the same generation (1) as the one read.
    Widget successor = create(client, "reborn");

    StatusOutcome<Widget> outcome = update.update(read, w -> ready(w, new AtomicInteger()));

    assertThat(outcome).isInstanceOf(StatusOutcome.Gone.class);
    assertThat(outcome.written()).isFalse();
    assertThat(evidence).singleElement().asString().contains(successor.getMetadata().getUid());
    Widget live = client.resources(Widget.class).withName("reborn").get();
    assertThat(live.getMetadata().getUid()).isEqualTo(successor.getMetadata().getUid());
    assertThat(live.getStatus())
        .as("the status computed for the deleted object is not written to the new one")
        .isNull();
  }

  @Test
  void aNewGenerationSinceTheReadIsLeftToItsOwnReconcile(KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    Widget read = create(client, "respecified");
    client
        .resources(Widget.class)
        .withName("respecified")
        .edit(
            w -> {
              w.getSpec().setSize(5);
              return w;
            });

    StatusOutcome<Widget> outcome = update.update(read, w -> ready(w, new AtomicInteger()));

    assertThat(outcome).isInstanceOf(StatusOutcome.Superseded.class);
    assertThat(outcome.object().getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(client.resources(Widget.class).withName("respecified").get().getStatus())
        .as("no status claiming generation 1 was written")
        .isNull();
  }

  @Test
  void aKindWithoutAStatusSubresourceIsNamedWithTheFix(KubernetesClient client) {
    RecomputingStatusUpdate update =
        new RecomputingStatusUpdate(client, StatusWriter.create(client));
    ConfigMap read =
        client
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("plain")
                    .endMetadata()
                    .withData(java.util.Map.of("a", "1"))
                    .build())
            .create();
    // A ConfigMap has no status at all; give it one in memory so that there is something to write.
    var withStatus =
        client
            .getKubernetesSerialization()
            .convertValue(read, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);

    assertThatThrownBy(
            () ->
                update.update(
                    withStatus,
                    g -> g.setAdditionalProperty("status", java.util.Map.of("phase", "Running"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ConfigMap")
        .hasMessageContaining("plain")
        .hasMessageContaining("status subresource");
  }
}
