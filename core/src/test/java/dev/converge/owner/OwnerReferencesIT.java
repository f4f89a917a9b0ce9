package dev.converge.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Owner references as the real API server and garbage collector treat them. */
@ExtendWith(LocalClusterExtension.class)
class OwnerReferencesIT {

  private static ConfigMap owner(KubernetesClient client, String name) {
    return client
        .configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("role", "owner")
                .build())
        .create();
  }

  private static Secret dependent(String name) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToStringData("k", "v")
        .build();
  }

  @Test
  void garbageCollectorDeletesTheControlledDependentWithItsOwner(KubernetesClient client) {
    ConfigMap owner = owner(client, "app");
    ConfigMap unrelated = owner(client, "unrelated");
    Secret desired = dependent("app-secret");
    desired.getMetadata().setNamespace(client.getNamespace());
    OwnerReferences.setController(owner, desired);
    Secret bystander = dependent("bystander");
    bystander.getMetadata().setNamespace(client.getNamespace());
    OwnerReferences.setController(unrelated, bystander);
    client.resource(desired).create();
    client.resource(bystander).create();

    client.resource(owner).delete();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(client.secrets().withName("app-secret").get()).isNull());
    assertThat(client.secrets().withName("bystander").get()).isNotNull();
  }

  @Test
  void storedControllerIsKeptAndASecondOneRefused(KubernetesClient client) {
    ConfigMap first = owner(client, "first");
    ConfigMap second = owner(client, "second");
    Secret desired = dependent("owned");
    desired.getMetadata().setNamespace(client.getNamespace());
    OwnerReferences.setController(first, desired);
    client.resource(desired).create();
    Secret live = client.secrets().withName("owned").get();

    assertThat(OwnerReferences.setController(first, live))
        .as("idempotent on the stored object")
        .isFalse();
    assertThatThrownBy(() -> OwnerReferences.setController(second, live))
        .isInstanceOf(AlreadyControlledException.class)
        .hasMessageContaining("Secret " + client.getNamespace() + "/owned")
        .hasMessageContaining("ConfigMap first")
        .hasMessageContaining("ConfigMap " + client.getNamespace() + "/second");

    Secret stored = client.secrets().withName("owned").get();
    assertThat(OwnerReferences.isControlledBy(stored, first)).isTrue();
    assertThat(stored.getMetadata().getOwnerReferences()).hasSize(1);
    assertThat(stored.getMetadata().getOwnerReferences().get(0).getBlockOwnerDeletion()).isTrue();
  }

  @Test
  void nonControllerOwnersKeepTheDependentUntilTheLastOneIsGone(KubernetesClient client) {
    ConfigMap a = owner(client, "a");
    ConfigMap b = owner(client, "b");
    Secret desired = dependent("shared");
    desired.getMetadata().setNamespace(client.getNamespace());
    OwnerReferences.addOwner(a, desired);
    OwnerReferences.addOwner(b, desired);
    client.resource(desired).create();

    client.resource(a).delete();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(
                        client
                            .secrets()
                            .withName("shared")
                            .get()
                            .getMetadata()
                            .getOwnerReferences())
                    .extracting(r -> r.getName())
                    .containsExactly("b"));
    assertThat(OwnerReferences.controllerOf(client.secrets().withName("shared").get())).isEmpty();

    client.resource(b).delete();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(client.secrets().withName("shared").get()).isNull());
  }
}
