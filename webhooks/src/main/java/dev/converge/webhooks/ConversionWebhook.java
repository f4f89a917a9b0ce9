package dev.converge.webhooks;

import java.util.Objects;

/**
 * One registered converter between two versions of a custom resource.
 *
 * @param first one version (often the storage version)
 * @param second the other version
 * @param converter the mapping both ways
 */
public record ConversionWebhook(
    ResourceType first, ResourceType second, Converter<?, ?> converter) {

  /**
   * Checks the registration.
   *
   * @param first one version (often the storage version)
   * @param second the other version
   * @param converter the mapping both ways
   * @throws IllegalArgumentException when the two types are not two different versions of one
   *     resource
   */
  public ConversionWebhook {
    Objects.requireNonNull(converter, "converter");
    if (!first.group().equals(second.group()) || !first.plural().equals(second.plural())) {
      throw new IllegalArgumentException(
          "a converter maps two versions of one resource, but "
              + first.type().getName()
              + " is "
              + first.resourceName()
              + " and "
              + second.type().getName()
              + " is "
              + second.resourceName());
    }
    if (first.version().equals(second.version())) {
      throw new IllegalArgumentException(
          first.type().getName()
              + " and "
              + second.type().getName()
              + " are both version "
              + first.version()
              + " of "
              + first.resourceName());
    }
  }

  /** {@return the CRD's name, {@code plural.group}} */
  public String crdName() {
    return first.resourceName();
  }

  /**
   * {@return the URL path the server answers on}, e.g. {@code
   * /convert/apps.converge.dev/appdeployments}
   */
  public String path() {
    return "/convert/" + first.groupOrCore() + "/" + first.plural();
  }
}
