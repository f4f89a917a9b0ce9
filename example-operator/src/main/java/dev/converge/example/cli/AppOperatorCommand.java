package dev.converge.example.cli;

import dev.converge.cli.OperatorOptions;
import dev.converge.cli.OperatorProcess;
import dev.converge.example.AppOperatorModule;
import dev.converge.example.OperatorSettings;
import dev.converge.example.webhook.AppWebhooks;
import dev.converge.operator.Operator;
import dev.converge.operator.ProbeServer;
import dev.converge.operator.RunSettings;
import dev.converge.webhooks.WebhookServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The AppDeployment operator's command line: {@code java -jar ... --help}. */
@Command(
    name = "app-operator",
    mixinStandardHelpOptions = true,
    version = "app-operator 0.1.0",
    description =
        "Runs the AppDeployment operator (apps.converge.dev/v1) until interrupted."
            + " Default strategies: apps/v1/Deployment=ssa, v1/Service=update.",
    sortOptions = false)
public final class AppOperatorCommand implements Callable<Integer> {

  @Mixin OperatorOptions options = new OperatorOptions();

  @Option(
      names = "--webhook-cert-dir",
      paramLabel = "DIR",
      description =
          "Serve the admission and conversion webhooks with tls.crt and tls.key from DIR"
              + " (a mounted Secret; re-read when it changes). Default: no webhooks.")
  Path webhookCertDir;

  @Option(
      names = "--webhook-port",
      paramLabel = "PORT",
      defaultValue = "9443",
      description = "HTTPS port of the webhooks. Default: ${DEFAULT-VALUE}.")
  int webhookPort;

  public static void main(String[] args) {
    System.exit(new CommandLine(new AppOperatorCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    return OperatorProcess.run(OperatorSettings.OPERATOR_NAME, this::start, System.err);
  }

  /**
   * Builds everything the flags describe and starts it: the client, the operator (through Guice),
   * and the probe and metrics server. Returns at once; closing the result stops it all.
   *
   * @throws dev.converge.strategy.StrategyConfigurationException when a strategy is unknown or the
   *     selection is malformed
   * @throws IOException when the config file cannot be read or the HTTP port cannot be bound
   */
  Started start() throws IOException {
    RunSettings settings = settings();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    KubernetesClient client = options.client(OperatorSettings.userAgent());
    try {
      Operator operator = AppOperatorModule.createOperator(client, settings, registry);
      // Before the probe server: both are the JDK's HTTP server, whose settings are read once.
      Optional<WebhookServer> webhooks =
          Optional.ofNullable(webhookCertDir)
              .map(dir -> AppWebhooks.serve(client, dir, webhookPort, registry));
      ProbeServer probes;
      try {
        probes = ProbeServer.start(options.httpPort(), operator::health, registry::scrape);
      } catch (IOException | RuntimeException e) {
        webhooks.ifPresent(WebhookServer::close);
        throw e;
      }
      System.out.printf(
          "app-operator: API server %s, namespace %s, strategies %s, leader election"
              + " %s, probes and metrics on :%d%n",
          client.getConfiguration().getMasterUrl(),
          settings.namespaces().isEmpty() ? "(all)" : String.join(",", settings.namespaces()),
          OperatorOptions.describe(settings.strategies()),
          settings
              .leaderElection()
              .map(l -> "on Lease " + l.leaseNamespace() + "/" + l.leaseName())
              .orElse("off"),
          probes.port());
      try {
        operator.start(); // a strategy key naming no served kind fails here
      } catch (RuntimeException e) {
        probes.close();
        webhooks.ifPresent(WebhookServer::close);
        throw e;
      }
      return new Started(client, operator, probes, webhooks);
    } catch (RuntimeException | IOException e) {
      client.close();
      throw e;
    }
  }

  /** A started operator with its client, HTTP server and webhooks. */
  record Started(
      KubernetesClient client,
      Operator operator,
      ProbeServer probes,
      Optional<WebhookServer> webhooks)
      implements AutoCloseable {
    @Override
    public void close() {
      webhooks.ifPresent(WebhookServer::close);
      probes.close();
      operator.stop();
      client.close();
    }
  }

  /** The settings the flags describe, on the operator's defaults. */
  RunSettings settings() throws IOException {
    return options.settings(OperatorSettings.defaults());
  }
}
