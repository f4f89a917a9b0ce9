package dev.converge.testing.conformance.internal;

import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * A context whose cache returns a snapshot taken earlier — what a runtime's informer cache shows
 * when another writer changed the object after the last watch event arrived.
 */
public record StaleContext(KubernetesClient client, String fieldManager, HasMetadata snapshot)
    implements StrategyContext {

  @Override
  public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
    return Optional.of(type.cast(snapshot));
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> Optional<R> current(R desired) {
    return Optional.of((R) snapshot);
  }
}
