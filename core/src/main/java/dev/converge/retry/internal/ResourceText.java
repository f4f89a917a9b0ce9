package dev.converge.retry.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * Renders a resource the way every Converge error and log line names it: {@code Kind
 * namespace/name} (or {@code Kind name} for cluster-scoped objects).
 */
public final class ResourceText {

  private ResourceText() {}

  public static String describe(HasMetadata resource) {
    if (resource == null) {
      return "<null resource>";
    }
    return describe(kindOf(resource), resource.getMetadata());
  }

  public static String describe(String kind, ObjectMeta meta) {
    String name = meta == null || blank(meta.getName()) ? "<unnamed>" : meta.getName();
    String namespace = meta == null ? null : meta.getNamespace();
    return blank(namespace) ? kind + " " + name : kind + " " + namespace + "/" + name;
  }

  public static String kindOf(HasMetadata resource) {
    String kind = resource.getKind();
    if (blank(kind)) {
      kind = HasMetadata.getKind(resource.getClass());
    }
    return blank(kind) ? resource.getClass().getSimpleName() : kind;
  }

  public static String apiVersionOf(HasMetadata resource) {
    String apiVersion = resource.getApiVersion();
    if (blank(apiVersion)) {
      apiVersion = HasMetadata.getApiVersion(resource.getClass());
    }
    return apiVersion;
  }

  public static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
