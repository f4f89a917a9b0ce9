package dev.converge.strategy.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.schema.FieldSet;
import dev.converge.strategy.DirectStrategyContext;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManagedFieldsTest {

  private static KubernetesClient clientWithAgent(String agent) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withUserAgent(agent).build())
        .build();
  }

  @Test
  void aFieldManagerNamedLikeTheUserAgentIsOneManager() {
    try (KubernetesClient client = clientWithAgent("app-operator/1.2.3")) {
      assertThat(ManagedFields.ownManagers(new DirectStrategyContext(client, "app-operator")))
          .containsExactly("app-operator");
      assertThat(ManagedFields.ownManagers(new DirectStrategyContext(client, "other")))
          .containsExactlyInAnyOrder("other", "app-operator");
    }
  }

  @Test
  void othersAreEveryManagerButOursSubresourcesIncluded() {
    Map<String, Object> live =
        Map.of(
            "metadata",
            Map.of(
                "managedFields",
                List.of(
                    Map.of(
                        "manager",
                        "app-operator",
                        "operation",
                        "Update",
                        "fieldsV1",
                        Map.of("f:data", Map.of("f:a", Map.of()))),
                    Map.of(
                        "manager",
                        "kubectl",
                        "operation",
                        "Update",
                        "fieldsV1",
                        Map.of("f:data", Map.of("f:b", Map.of()))),
                    Map.of(
                        "manager",
                        "kubectl",
                        "operation",
                        "Update",
                        "subresource",
                        "status",
                        "fieldsV1",
                        Map.of("f:status", Map.of("f:c", Map.of()))))));
    FieldSet others = ManagedFields.ownedByOthers(live, java.util.Set.of("app-operator"));
    // an owner through a subresource (here kubectl's /status update) is another writer too
    assertThat(others.leaves())
        .containsExactly(List.of("f:data", "f:b"), List.of("f:status", "f:c"));
  }
}
