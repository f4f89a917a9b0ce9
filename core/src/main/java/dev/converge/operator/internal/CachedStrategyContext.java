package dev.converge.operator.internal;

import dev.converge.source.Caches;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A strategy context whose reads come from the operator's informer caches; kinds without an
 * informer are read from the API server.
 */
record CachedStrategyContext(KubernetesClient client, String fieldManager, Caches caches)
    implements StrategyContext {

  private static final Logger log = LoggerFactory.getLogger(CachedStrategyContext.class);
  private static final Set<Class<?>> WARNED = ConcurrentHashMap.newKeySet();

  @Override
  public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
    if (caches.contains(type) && !trimmed(type)) {
      return caches.of(type).get(namespace, name);
    }
    if (caches.contains(type) && WARNED.add(type)) {
      log.info(
          "{} is written through a strategy but cached without managedFields, which the"
              + " strategy needs (no controller owns it): each write reads it from the API server."
              + " Declare it with owns({}.class) or OperatorBuilder.cache({}.class) to read it from"
              + " the cache",
          HasMetadata.getKind(type),
          type.getSimpleName(),
          type.getSimpleName());
    }
    var resources = client.resources(type);
    R found =
        namespace == null || namespace.isEmpty()
            ? resources.withName(name).get()
            : resources.inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(found);
  }

  private boolean trimmed(Class<?> type) {
    return caches instanceof SharedInformers informers && informers.trimmed(type);
  }
}
