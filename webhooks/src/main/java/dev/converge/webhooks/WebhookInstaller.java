package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers running webhooks with an API server, for local runs and tests (a cluster gets the
 * manifests generated at build time instead): the two webhook configurations by server-side apply,
 * and the conversion stanza of each CRD with a converter. Needs the rights of a cluster
 * administrator.
 */
public final class WebhookInstaller {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookInstaller.class);
  private static final String FIELD_MANAGER = "converge-webhooks";

  private WebhookInstaller() {}

  /**
   * Applies the configurations named {@code name} and switches the CRDs with converters to the
   * webhook, then waits until the API server serves every converted version.
   *
   * @param client a client allowed to apply webhook configurations and update CRDs
   * @param webhooks the registrations
   * @param name the name of the validating and mutating configurations
   * @param target where the API server sends the requests
   * @param timeout how long to wait for the converted versions to be served
   * @throws IllegalStateException naming the CRD when it is missing or a version is not served in
   *     {@code timeout}
   */
  public static void install(
      KubernetesClient client,
      Webhooks webhooks,
      String name,
      ClientTarget target,
      Duration timeout) {
    WebhookManifests.validating(webhooks, name, target)
        .ifPresent(
            config ->
                client
                    .admissionRegistration()
                    .v1()
                    .validatingWebhookConfigurations()
                    .resource(config)
                    .fieldManager(FIELD_MANAGER)
                    .forceConflicts()
                    .serverSideApply());
    WebhookManifests.mutating(webhooks, name, target)
        .ifPresent(
            config ->
                client
                    .admissionRegistration()
                    .v1()
                    .mutatingWebhookConfigurations()
                    .resource(config)
                    .fieldManager(FIELD_MANAGER)
                    .forceConflicts()
                    .serverSideApply());
    for (String crdName : crdNames(webhooks)) {
      CustomResourceDefinition crd = crd(client, crdName);
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(WebhookManifests.withConversion(crd, webhooks, target))
          .update();
      LOG.info(
          "CRD {} converts through {}",
          crdName,
          target
              .baseUrl()
              .orElse("Service " + target.serviceNamespace() + "/" + target.serviceName()));
    }
    awaitServed(client, webhooks, timeout);
    LOG.info(
        "Webhooks {} registered: {}",
        name,
        webhooks.admission().stream().map(AdmissionWebhook::name).toList());
  }

  /**
   * Deletes the configurations named {@code name} and turns conversion off again ({@link
   * WebhookManifests#withoutConversion}); what is already gone is skipped.
   *
   * @param client a client allowed to delete webhook configurations and update CRDs
   * @param webhooks the registrations {@link #install} was given
   * @param name the name of the validating and mutating configurations
   */
  public static void uninstall(KubernetesClient client, Webhooks webhooks, String name) {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name).delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name).delete();
    for (String crdName : crdNames(webhooks)) {
      CustomResourceDefinition crd =
          client.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
      if (crd != null) {
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .resource(WebhookManifests.withoutConversion(crd, webhooks))
            .update();
      }
    }
  }

  private static Set<String> crdNames(Webhooks webhooks) {
    Set<String> names = new LinkedHashSet<>();
    webhooks.conversion().forEach(h -> names.add(h.crdName()));
    return names;
  }

  private static CustomResourceDefinition crd(KubernetesClient client, String crdName) {
    CustomResourceDefinition crd =
        client.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
    if (crd == null) {
      throw new IllegalStateException(
          "CRD "
              + crdName
              + " is not installed; install it before"
              + " registering its conversion webhook");
    }
    return crd;
  }

  private static void awaitServed(KubernetesClient client, Webhooks webhooks, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (ConversionWebhook hook : webhooks.conversion()) {
      for (ResourceType type : java.util.List.of(hook.first(), hook.second())) {
        String path = "/apis/" + type.group() + "/" + type.version();
        while (true) {
          String discovery = null;
          try {
            discovery = client.raw(path);
          } catch (KubernetesClientException e) {
            LOG.debug("{} not served yet: {}", path, e.getMessage());
          }
          if (discovery != null && discovery.contains("\"" + type.plural() + "\"")) {
            break;
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                type.resourceName()
                    + " version "
                    + type.version()
                    + " is not served within "
                    + timeout.toSeconds()
                    + " s after enabling conversion");
          }
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + path, e);
          }
        }
      }
    }
  }
}
