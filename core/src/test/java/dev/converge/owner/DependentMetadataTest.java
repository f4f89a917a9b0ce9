package dev.converge.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DependentMetadataTest {

  private final ConfigMap primary =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withName("web")
          .withNamespace("shop")
          .withUid("uid-1")
          .withLabels(Map.of("team", "a"))
          .endMetadata()
          .build();

  @Test
  void aDependentIsNamedAfterItsPrimaryInItsNamespaceWithOnlyTheGivenLabels() {
    ObjectMeta meta = DependentMetadata.of(primary, Map.of("app", "web"));

    assertThat(meta.getName()).isEqualTo("web");
    assertThat(meta.getNamespace()).isEqualTo("shop");
    assertThat(meta.getLabels()).containsExactly(Map.entry("app", "web"));
    assertThat(meta.getOwnerReferences()).as("set by Context.apply").isEmpty();
    assertThat(meta.getUid()).isNull();
  }

  @Test
  void anotherNameAndNoLabelsLeaveTheLabelsOut() {
    ObjectMeta meta = DependentMetadata.of(primary, "web-metrics", Map.of());
    assertThat(meta.getName()).isEqualTo("web-metrics");
    assertThat(meta.getLabels()).isNullOrEmpty();
  }

  @Test
  void aClusterScopedPrimaryGivesNoNamespaceAndABlankNameIsRefused() {
    Namespace cluster =
        new NamespaceBuilder().withNewMetadata().withName("t").endMetadata().build();
    assertThat(DependentMetadata.of(cluster, Map.of()).getNamespace()).isNull();
    assertThatThrownBy(() -> DependentMetadata.of(primary, " ", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ConfigMap shop/web");
  }
}
