package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link StrategyContext} without a runtime: every {@link #cached} read is a GET to the API
 * server. Use it from tools and tests; inside a controller the runtime supplies an informer-backed
 * context.
 *
 * @param client the client for reads and writes, the caller's to close
 * @param fieldManager the field manager to write as, usually the operator's name
 */
public record DirectStrategyContext(KubernetesClient client, String fieldManager)
    implements StrategyContext {

  /**
   * Checks the components.
   *
   * @param client the client for reads and writes
   * @param fieldManager the field manager to write as
   * @throws NullPointerException if {@code client} is null
   * @throws IllegalArgumentException if {@code fieldManager} is null or blank
   */
  public DirectStrategyContext {
    Objects.requireNonNull(client, "client");
    if (fieldManager == null || fieldManager.isBlank()) {
      throw new IllegalArgumentException(
          "fieldManager must be a non-blank name, e.g. \"my-operator\"");
    }
  }

  @Override
  public <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name) {
    var resources = client.resources(type);
    R found =
        namespace == null
            ? resources.withName(name).get()
            : resources.inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(found);
  }
}
