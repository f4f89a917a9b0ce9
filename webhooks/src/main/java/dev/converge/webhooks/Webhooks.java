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

  public static Builder builder() {
    return new Builder();
  }

  /** Validators and defaulters, in registration order. */
  public List<AdmissionWebhook> admission() {
    return admission;
  }

  /** Converters, in registration order. */
  public List<ConversionWebhook> conversion() {
    return conversion;
  }

  /** The admission webhook answering on {@code path}. */
  public Optional<AdmissionWebhook> admissionAt(String path) {
    return admission.stream().filter(w -> w.path().equals(path)).findFirst();
  }

  /** The converters answering on {@code path} (one per pair of versions of that resource). */
  public List<ConversionWebhook> conversionAt(String path) {
    return conversion.stream().filter(w -> w.path().equals(path)).toList();
  }

  /** Collects registrations; one validator and one defaulter per kind and version. */
  public static final class Builder {
    private final List<AdmissionWebhook> admission = new ArrayList<>();
    private final List<ConversionWebhook> conversion = new ArrayList<>();

    private Builder() {}

    public <T extends HasMetadata> Builder validate(Class<T> type, Validator<T> validator) {
      return validate(type, validator, WebhookOptions.defaults());
    }

    public <T extends HasMetadata> Builder validate(
        Class<T> type, Validator<T> validator, WebhookOptions options) {
      return add(new AdmissionWebhook(false, ResourceType.of(type), validator, options));
    }

    public <T extends HasMetadata> Builder setDefaults(Class<T> type, Defaulter<T> defaulter) {
      return setDefaults(type, defaulter, WebhookOptions.defaults());
    }

    public <T extends HasMetadata> Builder setDefaults(
        Class<T> type, Defaulter<T> defaulter, WebhookOptions options) {
      return add(new AdmissionWebhook(true, ResourceType.of(type), defaulter, options));
    }

    /** Converts between two versions ({@code @Version}) of one custom resource. */
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
