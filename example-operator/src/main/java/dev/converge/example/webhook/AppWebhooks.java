package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.operator.Component;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.ShardLabeller;
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
    return create(client, options, Optional.empty());
  }

  /**
   * The webhooks, reading Deployments, Services and ConfigMaps with {@code client}; the defaulter
   * labels new AppDeployments for their replica when {@code shards} is present.
   *
   * @param client the client the validator reads with
   * @param options how the API server calls the validator and the defaulter
   * @param shards the sharded operator's labeller; empty when the operator is not sharded
   * @return the webhooks
   */
  public static Webhooks create(
      KubernetesClient client, WebhookOptions options, Optional<ShardLabeller> shards) {
    return create(AppDeploymentValidator.Lookup.of(client), options, shards);
  }

  /**
   * The webhooks as a component of the operator: served on {@code port} with the certificate of a
   * TLS Secret mounted at {@code certDir}, re-read when it changes.
   */
  public static Component server(Path certDir, int port) {
    return server(certDir, port, Optional.empty());
  }

  /**
   * As {@link #server(Path, int)}; when the operator is sharded ({@code shardRing} is its leader
   * election), the defaulter also gives each new AppDeployment its shard label, from a watch of the
   * ring's Leases that the component starts and stops with the server.
   *
   * @param certDir where the TLS Secret is mounted
   * @param port the port to serve on
   * @param shardRing the leader election whose Lease names the shard ring; empty when the operator
   *     is not sharded (then no Lease is watched)
   * @return the component
   */
  public static Component server(Path certDir, int port, Optional<LeaderElection> shardRing) {
    return (client, metrics) -> {
      Optional<ShardLabeller> shards =
          shardRing.map(
              ring -> ShardLabeller.watching(client, ring.leaseNamespace(), ring.leaseName()));
      try {
        WebhookServer server =
            WebhookServer.builder(create(client, WebhookOptions.defaults(), shards))
                .port(port)
                .certificate(ServingCertificate.fromDirectory(certDir))
                .meterRegistry(metrics)
                .start();
        return () -> {
          try {
            server.close();
          } finally {
            shards.ifPresent(ShardLabeller::close);
          }
        };
      } catch (Exception e) {
        shards.ifPresent(ShardLabeller::close);
        throw e;
      }
    };
  }

  static Webhooks create(AppDeploymentValidator.Lookup lookup, WebhookOptions options) {
    return create(lookup, options, Optional.empty());
  }

  static Webhooks create(
      AppDeploymentValidator.Lookup lookup,
      WebhookOptions options,
      Optional<ShardLabeller> shards) {
    return Webhooks.builder()
        .validate(AppDeployment.class, new AppDeploymentValidator(lookup), options)
        .setDefaults(AppDeployment.class, new AppDeploymentDefaulter(shards), options)
        .convert(AppDeployment.class, AppDeploymentV2.class, new AppDeploymentConversion())
        .build();
  }

  @Override
  public Webhooks get() {
    return create((kind, namespace, name) -> Optional.empty(), WebhookOptions.defaults());
  }
}
