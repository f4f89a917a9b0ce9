package dev.converge.strategy.ssa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Force decides who wins when another manager has applied a field this controller declares. */
@ExtendWith(LocalClusterExtension.class)
class ServerSideApplyForceIT {

  private static ConfigMap settings(String ns, String color) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("settings")
        .withNamespace(ns)
        .endMetadata()
        .addToData("color", color)
        .build();
  }

  private static void otherManagerTakes(KubernetesClient client, String ns) {
    client
        .resource(settings(ns, "green"))
        .fieldManager("other-controller")
        .forceConflicts()
        .serverSideApply();
  }

  @Test
  void withoutForceAConflictIsAnErrorNamingTheFieldAndTheOtherManager(
      KubernetesClient client, TestNamespace ns) {
    ServerSideApplyStrategy strict = new ServerSideApplyStrategy(false, Set.of());
    DirectStrategyContext context = new DirectStrategyContext(client, "my-operator");
    strict.apply(settings(ns.name(), "red"), context);
    otherManagerTakes(client, ns.name());

    assertThatThrownBy(() -> strict.apply(settings(ns.name(), "red"), context))
        .isInstanceOf(ResourceWriteException.class)
        .hasMessageContaining("ConfigMap " + ns.name() + "/settings")
        .hasMessageContaining(".data.color")
        .hasMessageContaining("other-controller");
    assertThat(client.configMaps().inNamespace(ns.name()).withName("settings").get().getData())
        .containsEntry("color", "green");
  }

  @Test
  void withForceTheControllerTakesTheFieldBackAndThenLeavesItAlone(
      KubernetesClient client, TestNamespace ns) {
    ServerSideApplyStrategy forced = new ServerSideApplyStrategy();
    DirectStrategyContext context = new DirectStrategyContext(client, "my-operator");
    forced.apply(settings(ns.name(), "red"), context);
    otherManagerTakes(client, ns.name());

    assertThat(forced.apply(settings(ns.name(), "red"), context).outcome())
        .isEqualTo(ApplyOutcome.UPDATED);
    assertThat(forced.apply(settings(ns.name(), "red"), context).outcome())
        .isEqualTo(ApplyOutcome.UNCHANGED);
    ConfigMap live = client.configMaps().inNamespace(ns.name()).withName("settings").get();
    assertThat(live.getData()).containsEntry("color", "red");
    assertThat(live.getMetadata().getManagedFields())
        .anySatisfy(
            e -> {
              assertThat(e.getManager()).isEqualTo("my-operator");
              assertThat(e.getOperation()).isEqualTo("Apply");
            });
  }
}
