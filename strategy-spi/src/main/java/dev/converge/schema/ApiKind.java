package dev.converge.schema;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A kind as configuration names it: {@code apiVersion/kind}, e.g. {@code apps/v1/Deployment} or
 * {@code v1/Service} (the core group has no group prefix). Strategy selection and schema lookup key
 * kinds by it.
 *
 * @param apiVersion {@code group/version}, or {@code version} alone for the core group
 * @param kind the kind, as in an object's {@code kind} field
 */
public record ApiKind(String apiVersion, String kind) {

  /**
   * Checks that neither part is blank.
   *
   * @param apiVersion {@code group/version}, or {@code version} alone for the core group
   * @param kind the kind
   * @throws NullPointerException if a part is null
   * @throws IllegalArgumentException if a part is blank
   */
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
   * @param text the configuration form, surrounding blanks allowed
   * @return the kind it names
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

  /**
   * The kind of a resource object, from its apiVersion and kind.
   *
   * @param resource an object whose {@code apiVersion} and {@code kind} are set, as they are on
   *     objects read from the API server and on fabric8's model objects
   * @return its kind
   * @throws NullPointerException if the object's apiVersion or kind is null
   */
  public static ApiKind of(HasMetadata resource) {
    return new ApiKind(resource.getApiVersion(), resource.getKind());
  }

  /** The configuration form, e.g. {@code apps/v1/Deployment}. */
  @Override
  public String toString() {
    return apiVersion + "/" + kind;
  }
}
