package dev.converge.operator.internal;

import dev.converge.source.Caches;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * A strategy context whose reads come from the operator's informer caches; kinds without an
 * informer are read from the API server.
 */
record CachedStrategyContext(KubernetesClient client, String fieldManager, Caches caches)
    implements StrategyContext {

  @Override
  public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
    if (caches.contains(type)) {
      return caches.of(type).get(namespace, name);
    }
    var resources = client.resources(type);
    R found = namespace == null || namespace.isEmpty()
        ? resources.withName(name).get()
        : resources.inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(found);
  }
}
