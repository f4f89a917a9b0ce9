package dev.converge.strategy.ssa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.update.UpdateStrategy;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Moving an object from the update strategy to ssa: the fields this controller wrote by PUT are
 * taken over (so dropping one from desired removes it), while a field another fabric8-based tool
 * wrote by PUT stays with that tool and survives the apply.
 */
@ExtendWith(LocalClusterExtension.class)
class ServerSideApplyTakeOverIT {

  private static ConfigMap desired(String ns, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("settings")
        .withNamespace(ns)
        .endMetadata()
        .withData(data)
        .build();
  }

  @Test
  void takesOverOnlyItsOwnEarlierWritesWhenItsClientHasItsOwnUserAgent(
      LocalCluster cluster, KubernetesClient otherTool, TestNamespace ns) {
    Config operatorConfig =
        new ConfigBuilder(cluster.config()).withUserAgent("my-operator/1.0").build();
    try (KubernetesClient operator =
        new KubernetesClientBuilder().withConfig(operatorConfig).build()) {
      DirectStrategyContext context = new DirectStrategyContext(operator, "my-operator");
      new UpdateStrategy().apply(desired(ns.name(), Map.of("a", "1", "b", "2")), context);

      ConfigMap edited = otherTool.configMaps().withName("settings").get();
      edited.getData().put("foreign", "kept");
      otherTool.configMaps().resource(edited).update();
      assertThat(otherTool.configMaps().withName("settings").get().getMetadata().getManagedFields())
          .extracting(ManagedFieldsEntry::getManager)
          .contains("my-operator", ServerSideApplyStrategy.FABRIC8_DEFAULT_MANAGER);

      new ServerSideApplyStrategy().apply(desired(ns.name(), Map.of("a", "1")), context);

      ConfigMap live = otherTool.configMaps().withName("settings").get();
      assertThat(live.getData())
          .containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "foreign", "kept"));
      assertThat(live.getMetadata().getManagedFields())
          .filteredOn(f -> "my-operator".equals(f.getManager()))
          .extracting(ManagedFieldsEntry::getOperation)
          .containsExactly("Apply");
    }
  }
}
