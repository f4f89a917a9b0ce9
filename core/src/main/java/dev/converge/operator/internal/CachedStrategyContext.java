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
 *
 * <p>A kind cached by a shard label only holds this replica's share: an object missing from the
 * cache may exist with another member's label (a child of a primary just handed over to this
 * replica, still labelled for its previous member until this replica writes it), so a miss is read
 * from the API server.
 */
record CachedStrategyContext(KubernetesClient client, String fieldManager, Caches caches)
    implements StrategyContext {

  private static final Logger log = LoggerFactory.getLogger(CachedStrategyContext.class);
  private static final Set<Class<?>> WARNED = ConcurrentHashMap.newKeySet();

  @Override
  public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
    if (caches.contains(type) && !trimmed(type)) {
      Optional<R> cached = caches.of(type).get(namespace, name);
      if (cached.isPresent() || !selected(type)) {
        return cached;
      }
      return read(type, namespace, name);
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
    return read(type, namespace, name);
  }

  private <R extends HasMetadata> Optional<R> read(Class<R> type, String namespace, String name) {
    var resources = client.resources(type);
    R found =
        namespace == null || namespace.isEmpty()
            ? resources.withName(name).get()
            : resources.inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(found);
  }

  private boolean selected(Class<?> type) {
    return caches instanceof SharedInformers informers && informers.selected(type);
  }

  private boolean trimmed(Class<?> type) {
    return caches instanceof SharedInformers informers && informers.trimmed(type);
  }
}
