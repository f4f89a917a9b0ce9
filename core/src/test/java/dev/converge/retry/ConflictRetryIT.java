package dev.converge.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Conflicts produced by a real API server, resolved by re-reading and re-applying the change. */
@ExtendWith(LocalClusterExtension.class)
class ConflictRetryIT {

  private static ConfigMap create(KubernetesClient client) {
    return client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("owner", "nobody")
                .build())
        .create();
  }

  @Test
  void staleUpdateIsReappliedOnTheLatestVersion(KubernetesClient client) {
    ConfigMap stale = create(client);
    client
        .configMaps()
        .withName("settings")
        .edit(cm -> new ConfigMapBuilder(cm).addToData("other", "kept").build());
    List<Duration> pauses = new ArrayList<>();

    ConfigMap written =
        ConflictRetry.defaults()
            .withPause(pauses::add)
            .update(client, stale, cm -> cm.getData().put("size", "3"));

    assertThat(pauses).as("first attempt conflicted, second succeeded").hasSize(1);
    assertThat(written.getData()).containsEntry("size", "3").containsEntry("other", "kept");
    assertThat(client.configMaps().withName("settings").get().getData())
        .containsEntry("size", "3")
        .containsEntry("other", "kept");
    assertThat(stale.getData()).as("input not modified").doesNotContainKey("size");
  }

  @Test
  void persistentConflictsGiveUpNamingTheResource(KubernetesClient client) {
    ConfigMap stale = create(client);
    int[] attempts = {0};
    ConflictRetry retry = ConflictRetry.defaults().withMaxAttempts(3);

    // Another writer changes the object between each read and write, so every attempt is stale.
    assertThatThrownBy(
            () ->
                retry.update(
                    client,
                    stale,
                    cm -> {
                      attempts[0]++;
                      client
                          .configMaps()
                          .withName("settings")
                          .edit(
                              live ->
                                  new ConfigMapBuilder(live)
                                      .addToData("tick", Integer.toString(attempts[0]))
                                      .build());
                      cm.getData().put("size", "3");
                    }))
        .isInstanceOf(ConflictRetriesExhaustedException.class)
        .hasMessageContaining("ConfigMap " + client.getNamespace() + "/settings")
        .hasMessageContaining("3 attempts");
    assertThat(attempts[0]).isEqualTo(3);
    assertThat(client.configMaps().withName("settings").get().getData()).doesNotContainKey("size");
  }

  @Test
  void anObjectReplacedSinceTheReadIsNotUpdated(KubernetesClient client) {
    ConfigMap stale = create(client);
    client.resource(stale).delete();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.configMaps().withName("settings").get() == null);
    ConfigMap successor = create(client);

    assertThatThrownBy(
            () ->
                ConflictRetry.defaults()
                    .withPause(Pause.none())
                    .update(client, stale, cm -> cm.getData().put("size", "3")))
        .isInstanceOfSatisfying(
            io.fabric8.kubernetes.client.KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404))
        .hasMessageContaining("ConfigMap " + client.getNamespace() + "/settings")
        .hasMessageContaining(successor.getMetadata().getUid());
    ConfigMap live = client.configMaps().withName("settings").get();
    assertThat(live.getMetadata().getUid()).isEqualTo(successor.getMetadata().getUid());
    assertThat(live.getData()).doesNotContainKey("size");
  }

  @Test
  void noChangeSendsNoWrite(KubernetesClient client) {
    ConfigMap live = create(client);

    ConfigMap result =
        ConflictRetry.defaults().update(client, live, cm -> cm.getData().put("owner", "nobody"));

    assertThat(result.getMetadata().getResourceVersion())
        .isEqualTo(live.getMetadata().getResourceVersion());
  }
}
