package dev.converge.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Names one object of the primary kind: what the work queue holds and what a reconcile is for.
 *
 * @param namespace the namespace, empty for a cluster-scoped kind (never null)
 * @param name the name
 */
public record ObjectKey(String namespace, String name) {

  public ObjectKey {
    namespace = namespace == null ? "" : namespace;
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("an object key needs a name");
    }
  }

  /** The key of a cluster-scoped object. */
  public static ObjectKey clusterScoped(String name) {
    return new ObjectKey("", name);
  }

  /** The key of {@code resource}. */
  public static ObjectKey of(HasMetadata resource) {
    return new ObjectKey(resource.getMetadata().getNamespace(), resource.getMetadata().getName());
  }

  /** True for a cluster-scoped key. */
  public boolean isClusterScoped() {
    return namespace.isEmpty();
  }

  /** {@code namespace/name}, or just {@code name} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
