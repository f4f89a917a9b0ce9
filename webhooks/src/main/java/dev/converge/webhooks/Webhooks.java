package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The webhooks of an operator: validators, defaulters and converters registered per kind. The same
 * value feeds the {@link WebhookServer} and the {@link WebhookManifests}, so the configuration the
 * API server reads and the paths the server answers cannot drift apart.
 *
 * <pre>{@code
 * Webhooks webhooks = Webhooks.builder()
 *     .validate(AppDeployment.class, new AppDeploymentValidator(client))
 *     .setDefaults(AppDeployment.class, new AppDeploymentDefaulter())
 *     .convert(AppDeployment.class, AppDeploymentV2.class, new AppDeploymentConversion())
 *     .build();
 * }</pre>
 */
public final class Webhooks {

  private final List<AdmissionWebhook> admission;
  private final List<ConversionWebhook> conversion;

  private Webhooks(List<AdmissionWebhook> admission, List<ConversionWebhook> conversion) {
    this.admission = List.copyOf(admission);
    this.conversion = List.copyOf(conversion);
  }

  /** {@return an empty registration} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return the validators and defaulters, in registration order} */
  public List<AdmissionWebhook> admission() {
    return admission;
  }

  /** {@return the converters, in registration order} */
  public List<ConversionWebhook> conversion() {
    return conversion;
  }

  /**
   * {@return the admission webhook answering on {@code path}}
   *
   * @param path a request's URL path
   */
  public Optional<AdmissionWebhook> admissionAt(String path) {
    return admission.stream().filter(w -> w.path().equals(path)).findFirst();
  }

  /**
   * {@return the converters answering on {@code path}} (one per pair of versions of that resource)
   *
   * @param path a request's URL path
   */
  public List<ConversionWebhook> conversionAt(String path) {
    return conversion.stream().filter(w -> w.path().equals(path)).toList();
  }

  /** Collects registrations; one validator and one defaulter per kind and version. */
  public static final class Builder {
    private final List<AdmissionWebhook> admission = new ArrayList<>();
    private final List<ConversionWebhook> conversion = new ArrayList<>();

    private Builder() {}

    /**
     * Validates objects of {@code type}'s kind and version, with the default options.
     *
     * @param <T> the model class
     * @param type the model class, which names the kind and version
     * @param validator what judges each request
     * @return this builder
     * @throws IllegalArgumentException when a validator for that kind and version is registered
     */
    public <T extends HasMetadata> Builder validate(Class<T> type, Validator<T> validator) {
      return validate(type, validator, WebhookOptions.defaults());
    }

    /**
     * Validates objects of {@code type}'s kind and version.
     *
     * @param <T> the model class
     * @param type the model class, which names the kind and version
     * @param validator what judges each request
     * @param options how the API server calls the webhook
     * @return this builder
     * @throws IllegalArgumentException when a validator for that kind and version is registered
     */
    public <T extends HasMetadata> Builder validate(
        Class<T> type, Validator<T> validator, WebhookOptions options) {
      return add(new AdmissionWebhook(false, ResourceType.of(type), validator, options));
    }

    /**
     * Sets defaults on objects of {@code type}'s kind and version, with the default options.
     *
     * @param <T> the model class
     * @param type the model class, which names the kind and version
     * @param defaulter what changes each object
     * @return this builder
     * @throws IllegalArgumentException when a defaulter for that kind and version is registered
     */
    public <T extends HasMetadata> Builder setDefaults(Class<T> type, Defaulter<T> defaulter) {
      return setDefaults(type, defaulter, WebhookOptions.defaults());
    }

    /**
     * Sets defaults on objects of {@code type}'s kind and version.
     *
     * @param <T> the model class
     * @param type the model class, which names the kind and version
     * @param defaulter what changes each object
     * @param options how the API server calls the webhook
     * @return this builder
     * @throws IllegalArgumentException when a defaulter for that kind and version is registered
     */
    public <T extends HasMetadata> Builder setDefaults(
        Class<T> type, Defaulter<T> defaulter, WebhookOptions options) {
      return add(new AdmissionWebhook(true, ResourceType.of(type), defaulter, options));
    }

    /**
     * Converts between two versions ({@code @Version}) of one custom resource.
     *
     * @param <A> the model class of one version
     * @param <B> the model class of the other
     * @param first one version's model class (often the storage version's)
     * @param second the other version's model class
     * @param converter the mapping both ways
     * @return this builder
     * @throws IllegalArgumentException when the two classes are not two versions of one resource,
     *     or a converter between these versions is registered
     */
    public <A extends HasMetadata, B extends HasMetadata> Builder convert(
        Class<A> first, Class<B> second, Converter<A, B> converter) {
      ConversionWebhook hook =
          new ConversionWebhook(ResourceType.of(first), ResourceType.of(second), converter);
      for (ConversionWebhook existing : conversion) {
        if (existing.crdName().equals(hook.crdName())
            && versions(existing).equals(versions(hook))) {
          throw new IllegalArgumentException(
              "two converters between versions " + versions(hook) + " of " + hook.crdName());
        }
      }
      conversion.add(hook);
      return this;
    }

    /** {@return the registrations so far} */
    public Webhooks build() {

      return new Webhooks(admission, conversion);
    }

    private Builder add(AdmissionWebhook hook) {
      for (AdmissionWebhook existing : admission) {
        if (existing.path().equals(hook.path())) {
          throw new IllegalArgumentException(
              "a "
                  + (hook.mutating() ? "defaulter" : "validator")
                  + " for "
                  + hook.resource().kind()
                  + " "
                  + hook.resource().apiVersion()
                  + " is already registered ("
                  + existing.handler().getClass().getName()
                  + "); combine them in one");
        }
      }
      admission.add(hook);
      return this;
    }

    private static java.util.Set<String> versions(ConversionWebhook hook) {
      return java.util.Set.of(hook.first().version(), hook.second().version());
    }
  }
}
