package dev.converge.strategy;

import dev.converge.schema.ResourceSchemas;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * What a {@link ResourceStrategy} may use during one apply: the client for writes, the field
 * manager to write as, and a read path for live objects.
 *
 * <p>The reconcile runtime implements {@link #cached} with its informer caches so that a steady
 * state apply issues no request at all; {@link DirectStrategyContext} reads from the API server for
 * use without a runtime (tools, tests, one-off jobs).
 */
public interface StrategyContext {

  /**
   * The client used for writes and for fresh reads after a conflict.
   *
   * @return the operator's client
   */
  KubernetesClient client();

  /**
   * The schemas of the kinds this controller writes, read from the API server once and then looked
   * up: what strategies decide equality, ownership and removal by. The default shares one registry
   * per client.
   *
   * @return the schema registry of {@link #client()}'s API server
   */
  default ResourceSchemas schemas() {
    return ResourceSchemas.of(client());
  }

  /**
   * The field manager name this controller writes as (server-side apply, patches).
   *
   * @return the name the API server records in managedFields for this controller's writes
   */
  String fieldManager();

  /**
   * The current object of {@code type} named {@code namespace/name}, as the runtime last saw it;
   * empty when it does not exist. May be slightly stale: strategies must tolerate conflicts.
   *
   * @param <R> the resource type
   * @param type the model class of the kind
   * @param namespace the namespace, or null for a cluster-scoped kind
   * @param name the object's name
   * @return the object, which may be shared with the runtime's cache (treat it as read-only); empty
   *     when it does not exist
   */
  <R extends HasMetadata> Optional<R> cached(Class<R> type, String namespace, String name);

  /**
   * The current object with the same kind, namespace and name as {@code desired}. Typed resources
   * go through {@link #cached}; {@link GenericKubernetesResource}s, whose class does not name a
   * kind, are read from the API server unless the implementation overrides this.
   *
   * @param <R> the resource type
   * @param desired the desired object, whose kind, namespace and name are looked up
   * @return the live object, to be treated as read-only; empty when it does not exist
   */
  @SuppressWarnings("unchecked")
  default <R extends HasMetadata> Optional<R> current(R desired) {
    if (desired instanceof GenericKubernetesResource) {
      return Optional.ofNullable(client().resource(desired).get());
    }
    return cached(
        (Class<R>) desired.getClass(),
        desired.getMetadata().getNamespace(),
        desired.getMetadata().getName());
  }
}
