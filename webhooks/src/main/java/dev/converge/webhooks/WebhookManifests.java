package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The objects that tell the API server about the webhooks: a {@code ValidatingWebhookConfiguration}
 * and a {@code MutatingWebhookConfiguration} with one webhook per registration, and the conversion
 * stanza of each CRD with a converter. The same {@link Webhooks} value drives the server, so paths
 * agree by construction.
 *
 * <p>Every admission webhook gets {@code sideEffects: None} (a handler must not change anything
 * else, so dry-run requests may call it), {@code admissionReviewVersions: [v1]}, {@code
 * matchPolicy: Equivalent} (a request in another version of the kind is converted and checked too)
 * and the failure policy, timeout, operations and selectors of its {@link WebhookOptions}.
 */
public final class WebhookManifests {

  private WebhookManifests() {}

  /**
   * {@return the validating configuration named {@code name}}; empty when no validator is
   * registered
   *
   * @param webhooks the registrations
   * @param name the configuration's name
   * @param target where the API server sends the requests
   */
  public static Optional<ValidatingWebhookConfiguration> validating(
      Webhooks webhooks, String name, ClientTarget target) {
    List<ValidatingWebhook> hooks =
        webhooks.admission().stream()
            .filter(h -> !h.mutating())
            .map(
                h ->
                    new ValidatingWebhookBuilder()
                        .withName(h.name())
                        .withClientConfig(clientConfig(target, h.path()))
                        .withRules(rule(h))
                        .withFailurePolicy(h.options().failurePolicy().name())
                        .withSideEffects("None")
                        .withMatchPolicy("Equivalent")
                        .withTimeoutSeconds(h.options().timeoutSeconds())
                        .withAdmissionReviewVersions("v1")
                        .withNamespaceSelector(h.options().namespaceSelector().orElse(null))
                        .withObjectSelector(h.options().objectSelector().orElse(null))
                        .build())
            .toList();
    if (hooks.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ValidatingWebhookConfigurationBuilder()
            .withMetadata(new ObjectMetaBuilder().withName(name).build())
            .withWebhooks(hooks)
            .build());
  }

  /**
   * {@return the mutating configuration named {@code name}}; empty when no defaulter is registered
   *
   * @param webhooks the registrations
   * @param name the configuration's name
   * @param target where the API server sends the requests
   */
  public static Optional<MutatingWebhookConfiguration> mutating(
      Webhooks webhooks, String name, ClientTarget target) {
    List<MutatingWebhook> hooks =
        webhooks.admission().stream()
            .filter(AdmissionWebhook::mutating)
            .map(
                h ->
                    new MutatingWebhookBuilder()
                        .withName(h.name())
                        .withClientConfig(clientConfig(target, h.path()))
                        .withRules(rule(h))
                        .withFailurePolicy(h.options().failurePolicy().name())
                        .withSideEffects("None")
                        .withMatchPolicy("Equivalent")
                        .withReinvocationPolicy("Never")
                        .withTimeoutSeconds(h.options().timeoutSeconds())
                        .withAdmissionReviewVersions("v1")
                        .withNamespaceSelector(h.options().namespaceSelector().orElse(null))
                        .withObjectSelector(h.options().objectSelector().orElse(null))
                        .build())
            .toList();
    if (hooks.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new MutatingWebhookConfigurationBuilder()
            .withMetadata(new ObjectMetaBuilder().withName(name).build())
            .withWebhooks(hooks)
            .build());
  }

  /**
   * A copy of {@code crd} converted through the webhook: strategy {@code Webhook} with the target,
   * {@code conversionReviewVersions: [v1]}, and every version a converter maps served. A CRD
   * without a converter is returned unchanged.
   *
   * @param crd the CRD as installed or generated; not changed
   * @param webhooks the registrations, whose converters for this CRD count
   * @param target where the API server sends the conversion requests
   * @return the converted copy, or {@code crd} itself when no converter maps it
   * @throws IllegalArgumentException when a converter names a version the CRD does not have
   */
  public static CustomResourceDefinition withConversion(
      CustomResourceDefinition crd, Webhooks webhooks, ClientTarget target) {
    String crdName = crd.getMetadata().getName();
    List<ConversionWebhook> hooks =
        webhooks.conversion().stream().filter(h -> h.crdName().equals(crdName)).toList();
    if (hooks.isEmpty()) {
      return crd;
    }
    CustomResourceDefinition copy = new KubernetesSerialization().clone(crd);
    Set<String> converted = new TreeSet<>();
    hooks.forEach(
        h -> {
          converted.add(h.first().version());
          converted.add(h.second().version());
        });
    for (String version : converted) {
      CustomResourceDefinitionVersion entry =
          copy.getSpec().getVersions().stream()
              .filter(v -> v.getName().equals(version))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "a converter is registered for version "
                              + version
                              + " of "
                              + crdName
                              + ", but the CRD has only "
                              + copy.getSpec().getVersions().stream()
                                  .map(CustomResourceDefinitionVersion::getName)
                                  .toList()));
      entry.setServed(true);
    }
    io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig config =
        new io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig();
    String path = hooks.get(0).path();
    if (target.baseUrl().isPresent()) {
      config.setUrl(target.baseUrl().get() + path);
    } else {
      config.setService(
          new io.fabric8.kubernetes.api.model.apiextensions.v1.ServiceReferenceBuilder()
              .withNamespace(target.serviceNamespace())
              .withName(target.serviceName())
              .withPort(target.servicePort())
              .withPath(path)
              .build());
    }
    target.caBundleBase64().ifPresent(config::setCaBundle);
    copy.getSpec()
        .setConversion(
            new CustomResourceConversionBuilder()
                .withStrategy("Webhook")
                .withNewWebhook()
                .withClientConfig(config)
                .withConversionReviewVersions("v1")
                .endWebhook()
                .build());
    return copy;
  }

  /**
   * A copy of {@code crd} without conversion: strategy {@code None}, and the versions a converter
   * maps that are not the storage version no longer served (without the webhook the API server
   * would serve them with the storage version's fields).
   *
   * @param crd the CRD as installed; not changed
   * @param webhooks the registrations, whose converters for this CRD count
   * @return the copy without conversion
   */
  public static CustomResourceDefinition withoutConversion(
      CustomResourceDefinition crd, Webhooks webhooks) {
    String crdName = crd.getMetadata().getName();
    CustomResourceDefinition copy = new KubernetesSerialization().clone(crd);
    Set<String> converted = new TreeSet<>();
    webhooks.conversion().stream()
        .filter(h -> h.crdName().equals(crdName))
        .forEach(
            h -> {
              converted.add(h.first().version());
              converted.add(h.second().version());
            });
    copy.getSpec().getVersions().stream()
        .filter(v -> converted.contains(v.getName()) && !Boolean.TRUE.equals(v.getStorage()))
        .forEach(v -> v.setServed(false));
    copy.getSpec()
        .setConversion(new CustomResourceConversionBuilder().withStrategy("None").build());
    return copy;
  }

  private static WebhookClientConfig clientConfig(ClientTarget target, String path) {
    WebhookClientConfigBuilder builder = new WebhookClientConfigBuilder();
    if (target.baseUrl().isPresent()) {
      builder.withUrl(target.baseUrl().get() + path);
    } else {
      builder
          .withNewService()
          .withNamespace(target.serviceNamespace())
          .withName(target.serviceName())
          .withPort(target.servicePort())
          .withPath(path)
          .endService();
    }
    target.caBundleBase64().ifPresent(builder::withCaBundle);
    return builder.build();
  }

  private static RuleWithOperations rule(AdmissionWebhook hook) {
    ResourceType resource = hook.resource();
    return new RuleWithOperationsBuilder()
        .withApiGroups(resource.group())
        .withApiVersions(resource.version())
        .withResources(resource.plural())
        .withOperations(hook.options().operations().stream().map(Enum::name).sorted().toList())
        .withScope(resource.namespaced() ? "Namespaced" : "Cluster")
        .build();
  }
}
