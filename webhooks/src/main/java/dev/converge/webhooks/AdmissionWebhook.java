package dev.converge.webhooks;

import java.util.Objects;

/**
 * One registered admission webhook: a validator or a defaulter for one kind and version.
 *
 * @param mutating true for a {@link Defaulter}, false for a {@link Validator}
 * @param resource the kind it is registered for
 * @param handler the {@link Validator} or {@link Defaulter}
 * @param options how the API server calls it
 */
public record AdmissionWebhook(
    boolean mutating, ResourceType resource, Object handler, WebhookOptions options) {

  /**
   * Checks the registration.
   *
   * @param mutating true for a {@link Defaulter}, false for a {@link Validator}
   * @param resource the kind it is registered for
   * @param handler the {@link Validator} or {@link Defaulter}
   * @param options how the API server calls it
   * @throws IllegalArgumentException when the handler is not the kind {@code mutating} asks for
   */
  public AdmissionWebhook {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(options, "options");
    if (mutating ? !(handler instanceof Defaulter<?>) : !(handler instanceof Validator<?>)) {
      throw new IllegalArgumentException(
          "a "
              + (mutating ? "mutating" : "validating")
              + " webhook needs a "
              + (mutating ? "Defaulter" : "Validator"));
    }
  }

  /**
   * {@return the URL path the server answers on}, e.g. {@code
   * /validate/apps.converge.dev/v1/appdeployments}
   */
  public String path() {
    return "/"
        + (mutating ? "mutate" : "validate")
        + "/"
        + resource.groupOrCore()
        + "/"
        + resource.version()
        + "/"
        + resource.plural();
  }

  /**
   * {@return the webhook's name in its configuration}, e.g. {@code
   * validate-v1.appdeployments.apps.converge.dev}; kubectl shows it in a denial
   */
  public String name() {
    return (mutating ? "default" : "validate")
        + "-"
        + resource.version()
        + "."
        + resource.plural()
        + "."
        + (resource.group().isEmpty() ? "core.k8s.io" : resource.group());
  }
}
