package dev.converge.handler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceCache;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnqueueHandlersTest {

  private static final Caches NO_CACHES =
      new Caches() {
        @Override
        public <R extends HasMetadata> ResourceCache<R> of(Class<R> type) {
          throw new IllegalArgumentException("no caches in this test");
        }

        @Override
        public boolean contains(Class<? extends HasMetadata> type) {
          return false;
        }
      };

  private static ConfigMap ownedBy(
      String apiVersion, String kind, String name, boolean controller) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("cm")
        .withNamespace("ns")
        .addToOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withName(name)
                .withUid("uid-" + name)
                .withController(controller)
                .build())
        .endMetadata()
        .build();
  }

  @Test
  void enqueueSelfEnqueuesTheObject() {
    assertThat(
            new EnqueueSelf<ConfigMap>()
                .keysFor(
                    new ResourceEvent.Created<>(ownedBy("apps/v1", "Deployment", "web", true)),
                    NO_CACHES))
        .containsExactly(new ObjectKey("ns", "cm"));
  }

  @Test
  void controllerOwnerOfTheRightKindIsEnqueuedInTheObjectsNamespace() {
    EnqueueControllerOwner<ConfigMap> handler = new EnqueueControllerOwner<>(Deployment.class);
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("apps/v1", "Deployment", "web", true)),
                NO_CACHES))
        .containsExactly(new ObjectKey("ns", "web"));
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("apps/v1beta2", "Deployment", "web", true)),
                NO_CACHES))
        .as("another version of the same group and kind still matches")
        .containsExactly(new ObjectKey("ns", "web"));
  }

  @Test
  void nonControllerOwnersAndOtherKindsAreIgnored() {
    EnqueueControllerOwner<ConfigMap> handler = new EnqueueControllerOwner<>(Deployment.class);
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("apps/v1", "Deployment", "web", false)),
                NO_CACHES))
        .isEmpty();
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("apps/v1", "StatefulSet", "web", true)),
                NO_CACHES))
        .isEmpty();
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("other.io/v1", "Deployment", "web", true)),
                NO_CACHES))
        .as("same kind name, other group")
        .isEmpty();
  }

  @Test
  void anUpdateThatChangesOwnerEnqueuesBothOwners() {
    EnqueueControllerOwner<ConfigMap> handler = new EnqueueControllerOwner<>(Deployment.class);
    assertThat(
            handler.keysFor(
                new ResourceEvent.Updated<>(
                    ownedBy("apps/v1", "Deployment", "old", true),
                    ownedBy("apps/v1", "Deployment", "new", true)),
                NO_CACHES))
        .containsExactlyInAnyOrder(new ObjectKey("ns", "old"), new ObjectKey("ns", "new"));
  }

  @Test
  void clusterScopedOwnerGetsAClusterScopedKey() {
    EnqueueControllerOwner<ConfigMap> handler = new EnqueueControllerOwner<>(Namespace.class);
    assertThat(
            handler.keysFor(
                new ResourceEvent.Created<>(ownedBy("v1", "Namespace", "team-a", true)), NO_CACHES))
        .containsExactly(ObjectKey.clusterScoped("team-a"));
  }

  @Test
  void mappedHandlerMapsOldAndNewStates() {
    EnqueueMapped<ConfigMap> handler =
        new EnqueueMapped<>(
            (cm, caches) ->
                List.of(
                    new ObjectKey(
                        cm.getMetadata().getNamespace(), "user-of-" + cm.getData().get("v"))));
    ConfigMap before =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .withNamespace("ns")
            .endMetadata()
            .addToData("v", "1")
            .build();
    ConfigMap after = new ConfigMapBuilder(before).addToData("v", "2").build();
    assertThat(handler.keysFor(new ResourceEvent.Updated<>(before, after), NO_CACHES))
        .containsExactly(new ObjectKey("ns", "user-of-1"), new ObjectKey("ns", "user-of-2"));
  }
}
