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

  /**
   * Checks the key; a null namespace becomes empty, so keys compare equal however they were made.
   *
   * @param namespace the namespace; null or empty for a cluster-scoped kind
   * @param name the name
   * @throws NullPointerException when {@code name} is null
   * @throws IllegalArgumentException when {@code name} is empty
   */
  public ObjectKey {
    namespace = namespace == null ? "" : namespace;
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("an object key needs a name");
    }
  }

  /**
   * The key of a cluster-scoped object.
   *
   * @param name the object's name
   * @return the key with an empty namespace
   */
  public static ObjectKey clusterScoped(String name) {
    return new ObjectKey("", name);
  }

  /**
   * The key of {@code resource}.
   *
   * @param resource an object with metadata
   * @return its namespace and name
   */
  public static ObjectKey of(HasMetadata resource) {
    return new ObjectKey(resource.getMetadata().getNamespace(), resource.getMetadata().getName());
  }

  /**
   * Whether the key names a cluster-scoped object.
   *
   * @return true when the namespace is empty
   */
  public boolean isClusterScoped() {
    return namespace.isEmpty();
  }

  /** {@code namespace/name}, or just {@code name} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
