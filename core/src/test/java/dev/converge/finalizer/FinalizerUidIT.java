package dev.converge.finalizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A finalizer write is meant for one object, named by its UID, not for whatever object holds its
 * name when the write is sent. Between the read a decision was made on and the write, the object is
 * deleted and a new one of the same name is created: the write conflicts (its resourceVersion is
 * the old object's), and the fresh read that follows finds the new object, which must be left as it
 * is.
 */
@ExtendWith(LocalClusterExtension.class)
class FinalizerUidIT {

  static final String OURS = "finalizeruidit.converge.dev/cleanup";

  @Test
  void removingTheFinalizerOfADeletedObjectLeavesTheNewObjectOfItsNameAlone(
      KubernetesClient client) {
    ConfigMap old = create(client, "reborn", List.of(OURS));
    client.resource(old).delete();
    // The reconcile reads the object being deleted and runs its cleanup...
    ConfigMap deleting =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> client.configMaps().withName("reborn").get(),
                cm -> cm != null && cm.getMetadata().getDeletionTimestamp() != null);
    // ...meanwhile its finalizer is released by someone else, the object goes, and a new one of
    // the same name is created with the same finalizer: its cleanup has yet to run.
    release(client, "reborn");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.configMaps().withName("reborn").get() == null);
    ConfigMap successor = create(client, "reborn", List.of(OURS));
    try {
      ConfigMap result = new Finalizers(client).remove(deleting, OURS);

      assertThat(result).as("the object it was meant for is gone").isSameAs(deleting);
      ConfigMap live = client.configMaps().withName("reborn").get();
      assertThat(live.getMetadata().getUid()).isEqualTo(successor.getMetadata().getUid());
      assertThat(live.getMetadata().getFinalizers())
          .as("the new object keeps its finalizer until its own cleanup ran")
          .containsExactly(OURS);
      assertThat(live.getMetadata().getResourceVersion())
          .as("the new object was not written at all")
          .isEqualTo(successor.getMetadata().getResourceVersion());
    } finally {
      release(client, "reborn");
    }
  }

  @Test
  void addingTheFinalizerToADeletedObjectLeavesTheNewObjectOfItsNameAlone(KubernetesClient client) {
    ConfigMap old = create(client, "replaced", List.of());
    client.resource(old).delete();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.configMaps().withName("replaced").get() == null);
    ConfigMap successor = create(client, "replaced", List.of());

    assertThatThrownBy(() -> new Finalizers(client).add(old, OURS))
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409))
        .hasMessageContaining("ConfigMap " + client.getNamespace() + "/replaced")
        .hasMessageContaining(old.getMetadata().getUid())
        .hasMessageContaining(successor.getMetadata().getUid());

    ConfigMap live = client.configMaps().withName("replaced").get();
    assertThat(live.getMetadata().getUid()).isEqualTo(successor.getMetadata().getUid());
    assertThat(live.getMetadata().getFinalizers()).isNullOrEmpty();
    assertThat(live.getMetadata().getResourceVersion())
        .isEqualTo(successor.getMetadata().getResourceVersion());
  }

  @Test
  void aConflictOnTheSameObjectIsStillRetried(KubernetesClient client) {
    // For contrast: a conflict caused by another writer of the same object is recomputed.
    ConfigMap read = create(client, "busy", List.of(OURS));
    client
        .configMaps()
        .withName("busy")
        .edit(cm -> new ConfigMapBuilder(cm).addToData("touched", "yes").build());
    try {
      ConfigMap removed = new Finalizers(client).remove(read, OURS);

      assertThat(removed.getMetadata().getFinalizers()).isNullOrEmpty();
      ConfigMap live = client.configMaps().withName("busy").get();
      assertThat(live.getMetadata().getFinalizers()).isNullOrEmpty();
      assertThat(live.getData()).containsEntry("touched", "yes");
    } finally {
      release(client, "busy");
    }
  }

  private static ConfigMap create(KubernetesClient client, String name, List<String> finalizers) {
    return client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withFinalizers(new ArrayList<>(finalizers))
                .endMetadata()
                .build())
        .create();
  }

  /** Empties the finalizers of whatever object holds {@code name}, if any. */
  private static void release(KubernetesClient client, String name) {
    if (client.configMaps().withName(name).get() == null) {
      return;
    }
    client
        .configMaps()
        .withName(name)
        .edit(
            cm ->
                new ConfigMapBuilder(cm)
                    .editMetadata()
                    .withFinalizers(new ArrayList<>())
                    .endMetadata()
                    .build());
  }
}
