package dev.converge.schema;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A kind as configuration names it: {@code apiVersion/kind}, e.g. {@code apps/v1/Deployment} or
 * {@code v1/Service} (the core group has no group prefix).
 */
public record ApiKind(String apiVersion, String kind) {

  public ApiKind {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    if (apiVersion.isBlank() || kind.isBlank()) {
      throw new IllegalArgumentException("apiVersion and kind must not be blank");
    }
  }

  /**
   * Parses {@code group/version/Kind} or {@code version/Kind}.
   *
   * @throws IllegalArgumentException naming the text and the expected form
   */
  public static ApiKind parse(String text) {
    String trimmed = text.trim();
    int slash = trimmed.lastIndexOf('/');
    if (slash <= 0
        || slash == trimmed.length() - 1
        || trimmed.chars().filter(c -> c == '/').count() > 2) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a kind; expected group/version/Kind (apps/v1/Deployment) or"
              + " version/Kind for the core group (v1/Service)");
    }
    return new ApiKind(trimmed.substring(0, slash), trimmed.substring(slash + 1));
  }

  /** The kind of a resource object, from its apiVersion and kind. */
  public static ApiKind of(HasMetadata resource) {
    return new ApiKind(resource.getApiVersion(), resource.getKind());
  }

  /** The configuration form, e.g. {@code apps/v1/Deployment}. */
  @Override
  public String toString() {
    return apiVersion + "/" + kind;
  }
}
