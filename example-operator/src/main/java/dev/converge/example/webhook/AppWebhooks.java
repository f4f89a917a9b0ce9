package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.webhooks.ServingCertificate;
import dev.converge.webhooks.WebhookOptions;
import dev.converge.webhooks.WebhookServer;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** The operator's webhooks: the validator, the defaulter and the v1/v2 conversion. */
public final class AppWebhooks {

  private AppWebhooks() {}

  /** The webhooks, reading Deployments, Services and ConfigMaps with {@code client}. */
  public static Webhooks create(KubernetesClient client, WebhookOptions options) {
    return create(
        (kind, namespace, name) ->
            Optional.ofNullable(
                switch (kind) {
                  case "Deployment" ->
                      client.apps().deployments().inNamespace(namespace).withName(name).get();
                  case "Service" -> client.services().inNamespace(namespace).withName(name).get();
                  default ->
                      (HasMetadata) client.configMaps().inNamespace(namespace).withName(name).get();
                }),
        options);
  }

  static Webhooks create(AppDeploymentValidator.Lookup lookup, WebhookOptions options) {
    return Webhooks.builder()
        .validate(AppDeployment.class, new AppDeploymentValidator(lookup), options)
        .setDefaults(AppDeployment.class, new AppDeploymentDefaulter(), options)
        .convert(AppDeployment.class, AppDeploymentV2.class, new AppDeploymentConversion())
        .build();
  }

  /** Serves them on {@code port} with {@code tls.crt}/{@code tls.key} from {@code certDir}. */
  public static WebhookServer serve(
      KubernetesClient client, Path certDir, int port, MeterRegistry registry) {
    return WebhookServer.builder(create(client, WebhookOptions.defaults()))
        .port(port)
        .certificate(
            ServingCertificate.fromFiles(
                certDir.resolve("tls.crt"), certDir.resolve("tls.key"), Duration.ofSeconds(30)))
        .meterRegistry(registry)
        .start();
  }

  /** The registrations for the build step that writes the webhook manifests. */
  public static final class Manifests implements Supplier<Webhooks> {
    @Override
    public Webhooks get() {
      return create((kind, namespace, name) -> Optional.empty(), WebhookOptions.defaults());
    }
  }
}
