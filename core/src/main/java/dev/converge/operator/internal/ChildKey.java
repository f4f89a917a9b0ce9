package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What identifies a child for pruning: API group, kind, namespace and name. The version is left
 * out, so that an object applied as {@code apps/v1} matches the same object cached under another
 * version of its group.
 */
record ChildKey(String group, String kind, String namespace, String name) {

  /**
   * The key of {@code object}; a namespaced object written without a namespace lands in {@code
   * defaultNamespace} (the primary's), as the client would send it.
   */
  static ChildKey of(HasMetadata object, String defaultNamespace) {
    String apiVersion =
        object.getApiVersion() != null
            ? object.getApiVersion()
            : HasMetadata.getApiVersion(object.getClass());
    String kind =
        object.getKind() != null ? object.getKind() : HasMetadata.getKind(object.getClass());
    int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String namespace = object.getMetadata().getNamespace();
    return new ChildKey(
        group,
        kind,
        Objects.toString(namespace != null ? namespace : defaultNamespace, ""),
        object.getMetadata().getName());
  }
}
