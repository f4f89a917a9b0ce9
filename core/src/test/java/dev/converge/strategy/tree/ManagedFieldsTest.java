package dev.converge.strategy.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The names a controller's own writes are recorded under. */
class ManagedFieldsTest {

  @Test
  void aUserAgentNamedLikeTheFieldManagerIsOneName() {
    assertThat(ManagedFields.ownManagers(context("widget-operator", "widget-operator/1.0")))
        .containsExactly("widget-operator");
  }

  @Test
  void aUserAgentOfItsOwnIsASecondName() {
    assertThat(ManagedFields.ownManagers(context("widget-operator", "widgets/1.0")))
        .containsExactlyInAnyOrder("widget-operator", "widgets");
  }

  private static StrategyContext context(String fieldManager, String userAgent) {
    Config config = new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withUserAgent(userAgent)
        .build();
    KubernetesClient client = mock(KubernetesClient.class);
    when(client.getConfiguration()).thenReturn(config);
    return new StrategyContext() {
      @Override
      public KubernetesClient client() {
        return client;
      }

      @Override
      public String fieldManager() {
        return fieldManager;
      }

      @Override
      public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
        return Optional.empty();
      }
    };
  }
}
