package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.owner.InvalidOwnerException;
import dev.converge.owner.OwnerReferences;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import org.junit.jupiter.api.Test;

class ReconcileContextTest {

  private static ServiceAccount owner(String name, String uid) {
    return new ServiceAccountBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("shop")
        .withUid(uid)
        .endMetadata()
        .build();
  }

  private static ConfigMap dependent() {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("cfg")
        .withNamespace("shop")
        .endMetadata()
        .build();
  }

  @Test
  void applySetsThePrimaryAsControllerAndKeepsAControllerTheCallerChose() {
    ConfigMap plain = dependent();
    ReconcileContext.setController(owner("app", "uid-1"), plain);
    assertThat(OwnerReferences.isControlledBy(plain, owner("app", "uid-1"))).isTrue();

    ConfigMap chosen = dependent();
    OwnerReferences.setController(owner("other", "uid-2"), chosen);
    ReconcileContext.setController(owner("app", "uid-1"), chosen);
    assertThat(chosen.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(ref -> assertThat(ref.getName()).isEqualTo("other"));
  }

  @Test
  void anObjectTheRulesForbidNamesTheOptOut() {
    var clusterScoped =
        new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build();
    ConfigMap elsewhere =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("cfg")
            .withNamespace("other")
            .endMetadata()
            .build();

    assertThatThrownBy(() -> ReconcileContext.setController(owner("app", "uid-1"), clusterScoped))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("Namespace team")
        .hasMessageContaining("ApplyOptions.withoutOwnerReference()");
    assertThatThrownBy(() -> ReconcileContext.setController(owner("app", "uid-1"), elsewhere))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("cross-namespace")
        .hasMessageContaining("ApplyOptions.withoutOwnerReference()");
  }
}
