package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.operator.Component;
import dev.converge.webhooks.ServingCertificate;
import dev.converge.webhooks.WebhookOptions;
import dev.converge.webhooks.WebhookServer;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The operator's webhooks: the validator, the defaulter and the v1/v2 conversion. As a {@code
 * Supplier}, the registrations for the build step that writes the webhook manifests.
 */
public final class AppWebhooks implements Supplier<Webhooks> {

  /** The webhooks, reading Deployments, Services and ConfigMaps with {@code client}. */
  public static Webhooks create(KubernetesClient client, WebhookOptions options) {
    return create(AppDeploymentValidator.Lookup.of(client), options);
  }

  /**
   * The webhooks as a component of the operator: served on {@code port} with the certificate of a
   * TLS Secret mounted at {@code certDir}, re-read when it changes.
   */
  public static Component server(Path certDir, int port) {
    return (client, metrics) ->
        WebhookServer.builder(create(client, WebhookOptions.defaults()))
            .port(port)
            .certificate(ServingCertificate.fromDirectory(certDir))
            .meterRegistry(metrics)
            .start();
  }

  static Webhooks create(AppDeploymentValidator.Lookup lookup, WebhookOptions options) {
    return Webhooks.builder()
        .validate(AppDeployment.class, new AppDeploymentValidator(lookup), options)
        .setDefaults(AppDeployment.class, new AppDeploymentDefaulter(), options)
        .convert(AppDeployment.class, AppDeploymentV2.class, new AppDeploymentConversion())
        .build();
  }

  @Override
  public Webhooks get() {
    return create((kind, namespace, name) -> Optional.empty(), WebhookOptions.defaults());
  }
}
