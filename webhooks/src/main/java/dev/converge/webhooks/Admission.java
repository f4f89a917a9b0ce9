package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;

/**
 * One admission request, typed: the object as it would be stored and, for an update, the object as
 * it is stored now.
 *
 * @param operation what the client is doing
 * @param object the new object (for DELETE, the object being deleted)
 * @param oldObject the stored object on UPDATE and DELETE, else empty
 * @param namespace the request's namespace ("" for cluster-scoped kinds)
 * @param name the object's name ("" on a create with {@code generateName})
 * @param username who sent the request
 * @param dryRun true when nothing will be stored ({@code dryRun=All}); a handler with side effects
 *     must not apply them
 */
public record Admission<T extends HasMetadata>(
    Operation operation,
    T object,
    Optional<T> oldObject,
    String namespace,
    String name,
    String username,
    boolean dryRun) {

  /** {@return {@code Kind namespace/name} of the object}, for messages and logs */
  public String describe() {
    String kind = object == null ? "object" : object.getKind();
    return kind
        + " "
        + (namespace.isEmpty() ? "" : namespace + "/")
        + (name.isEmpty() ? "(generated name)" : name);
  }
}
