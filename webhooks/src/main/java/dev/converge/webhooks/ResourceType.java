package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;

/**
 * Group, version, kind and plural of a fabric8 model class, read from its annotations.
 *
 * @param type the Java class
 * @param group the API group ("" for the core group)
 * @param version the API version
 * @param kind the kind
 * @param plural the resource name
 * @param namespaced whether objects live in namespaces
 */
public record ResourceType(
    Class<? extends HasMetadata> type,
    String group,
    String version,
    String kind,
    String plural,
    boolean namespaced) {

  /**
   * {@return the class's group, version, kind and plural}
   *
   * @param type a class annotated as fabric8 model classes are ({@code @Group}, {@code @Version},
   *     {@code @Kind}, optionally {@code @Plural})
   * @throws IllegalArgumentException naming the class when it has no {@code @Version} or
   *     {@code @Kind}
   */
  public static ResourceType of(Class<? extends HasMetadata> type) {
    String version = HasMetadata.getVersion(type);
    String kind = HasMetadata.getKind(type);
    if (version == null || kind == null) {
      throw new IllegalArgumentException(
          type.getName()
              + " has no @Version or @Kind, so its API version is unknown; annotate it as fabric8 model"
              + " classes are annotated");
    }
    String group = HasMetadata.getGroup(type);
    return new ResourceType(
        type,
        group == null ? "" : group,
        version,
        kind,
        HasMetadata.getPlural(type),
        Namespaced.class.isAssignableFrom(type));
  }

  /** {@return {@code group/version}, or {@code version} for the core group} */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** {@return {@code plural.group}, the CRD's name} */
  public String resourceName() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  /** The group in a webhook's name and path: the group, or {@code core} for the core group. */
  String groupOrCore() {
    return group.isEmpty() ? "core" : group;
  }
}
