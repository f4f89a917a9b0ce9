package dev.converge.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import org.junit.jupiter.api.Test;

class OwnerReferencesTest {

  private static Deployment deployment(String ns, String name, String uid) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withUid(uid)
        .endMetadata()
        .build();
  }

  private static ConfigMap configMap(String ns, String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .endMetadata()
        .build();
  }

  @Test
  void controllerReferenceCarriesIdentityAndBlocksOwnerDeletion() {
    Deployment owner = deployment("shop", "web", "uid-1");
    ConfigMap dependent = configMap("shop", "web-config");

    assertThat(OwnerReferences.setController(owner, dependent)).isTrue();

    OwnerReference ref = dependent.getMetadata().getOwnerReferences().get(0);
    assertThat(ref.getApiVersion()).isEqualTo("apps/v1");
    assertThat(ref.getKind()).isEqualTo("Deployment");
    assertThat(ref.getName()).isEqualTo("web");
    assertThat(ref.getUid()).isEqualTo("uid-1");
    assertThat(ref.getController()).isTrue();
    assertThat(ref.getBlockOwnerDeletion()).isTrue();
    assertThat(OwnerReferences.controllerOf(dependent)).contains(ref);
    assertThat(OwnerReferences.isControlledBy(dependent, owner)).isTrue();
  }

  @Test
  void settingTheSameControllerTwiceChangesNothing() {
    Deployment owner = deployment("shop", "web", "uid-1");
    ConfigMap dependent = configMap("shop", "web-config");
    OwnerReferences.setController(owner, dependent);

    assertThat(OwnerReferences.setController(owner, dependent)).isFalse();
    assertThat(dependent.getMetadata().getOwnerReferences()).hasSize(1);
  }

  @Test
  void aSecondControllerIsRefusedNamingBothObjects() {
    ConfigMap dependent = configMap("shop", "web-config");
    OwnerReferences.setController(deployment("shop", "web", "uid-1"), dependent);

    assertThatThrownBy(
            () -> OwnerReferences.setController(deployment("shop", "api", "uid-2"), dependent))
        .isInstanceOf(AlreadyControlledException.class)
        .hasMessageContaining("ConfigMap shop/web-config")
        .hasMessageContaining("Deployment web (uid uid-1)")
        .hasMessageContaining("Deployment shop/api")
        .satisfies(
            e ->
                assertThat(((AlreadyControlledException) e).existingController().getUid())
                    .isEqualTo("uid-1"));
    assertThat(dependent.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getName)
        .containsExactly("web");
  }

  @Test
  void aRecreatedOwnerWithTheSameNameReplacesTheStaleReference() {
    ConfigMap dependent = configMap("shop", "web-config");
    OwnerReferences.setController(deployment("shop", "web", "uid-old"), dependent);

    assertThat(OwnerReferences.setController(deployment("shop", "web", "uid-new"), dependent))
        .isTrue();
    assertThat(dependent.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly("uid-new");
  }

  @Test
  void namespacedOwnerInAnotherNamespaceIsRefused() {
    assertThatThrownBy(
            () -> OwnerReferences.setController(deployment("a", "web", "u"), configMap("b", "cfg")))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("cross-namespace")
        .hasMessageContaining("Deployment a/web")
        .hasMessageContaining("ConfigMap b/cfg");
  }

  @Test
  void namespacedOwnerOfAClusterScopedObjectIsRefused() {
    ClusterRole role =
        new ClusterRoleBuilder().withNewMetadata().withName("reader").endMetadata().build();

    assertThatThrownBy(() -> OwnerReferences.addOwner(deployment("a", "web", "u"), role))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("ClusterRole reader")
        .hasMessageContaining("cluster-scoped");
  }

  @Test
  void clusterScopedOwnerMayOwnNamespacedObjects() {
    Namespace owner =
        new NamespaceBuilder()
            .withNewMetadata()
            .withName("tenant")
            .withUid("ns-uid")
            .endMetadata()
            .build();
    ConfigMap dependent = configMap("other", "cfg");

    assertThat(OwnerReferences.setController(owner, dependent)).isTrue();
    assertThat(OwnerReferences.controllerOf(dependent))
        .get()
        .extracting(OwnerReference::getKind, OwnerReference::getApiVersion)
        .containsExactly("Namespace", "v1");
  }

  @Test
  void ownerThatWasNeverStoredIsRefused() {
    assertThatThrownBy(
            () ->
                OwnerReferences.setController(deployment("a", "web", null), configMap("a", "cfg")))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("metadata.uid");
  }

  @Test
  void nonControllerOwnersAccumulateAndDoNotDowngradeTheController() {
    ConfigMap dependent = configMap("shop", "cfg");
    Deployment web = deployment("shop", "web", "uid-1");
    Deployment api = deployment("shop", "api", "uid-2");
    OwnerReferences.setController(web, dependent);

    assertThat(OwnerReferences.addOwner(api, dependent)).isTrue();
    assertThat(OwnerReferences.addOwner(api, dependent)).isFalse();
    assertThat(OwnerReferences.addOwner(web, dependent)).isFalse();

    assertThat(dependent.getMetadata().getOwnerReferences()).hasSize(2);
    OwnerReference apiRef = dependent.getMetadata().getOwnerReferences().get(1);
    assertThat(apiRef.getController()).isNull();
    assertThat(OwnerReferences.isOwnedBy(dependent, api)).isTrue();
    assertThat(OwnerReferences.isControlledBy(dependent, web)).isTrue();
  }

  @Test
  void aNonControllerOwnerCanBePromotedToController() {
    ConfigMap dependent = configMap("shop", "cfg");
    Deployment web = deployment("shop", "web", "uid-1");
    OwnerReferences.addOwner(web, dependent);

    assertThat(OwnerReferences.setController(web, dependent)).isTrue();
    assertThat(dependent.getMetadata().getOwnerReferences())
        .singleElement()
        .extracting(OwnerReference::getController)
        .isEqualTo(true);
  }

  @Test
  void removeDropsOnlyThatOwner() {
    ConfigMap dependent = configMap("shop", "cfg");
    Deployment web = deployment("shop", "web", "uid-1");
    Deployment api = deployment("shop", "api", "uid-2");
    OwnerReferences.setController(web, dependent);
    OwnerReferences.addOwner(api, dependent);

    assertThat(OwnerReferences.remove(web, dependent)).isTrue();
    assertThat(OwnerReferences.remove(web, dependent)).isFalse();

    assertThat(OwnerReferences.controllerOf(dependent)).isEmpty();
    assertThat(dependent.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getName)
        .containsExactly("api");
  }

  @Test
  void objectWithoutReferencesHasNoController() {
    HasMetadata plain = configMap("a", "b");
    assertThat(OwnerReferences.controllerOf(plain)).isEmpty();
    assertThat(OwnerReferences.isControlledBy(plain, deployment("a", "web", "u"))).isFalse();
  }
}
