package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.Phase;
import dev.converge.operator.Operator;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** The command line as a user runs it: flags, kubeconfig, probes and metrics over HTTP. */
@ExtendWith(LocalClusterExtension.class)
class AppOperatorIT {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void runsFromAKubeconfigAndServesProbesAndMetrics(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws Exception {
    AppDeploymentCrd.install(admin, Duration.ofSeconds(30));
    AppOperator command = new AppOperator();
    new CommandLine(command)
        .parseArgs(
            "--kubeconfig",
            cluster.kubeconfig().toString(),
            "--namespace",
            ns.name(),
            "--http-port",
            "0",
            "--strategy",
            "v1/Service=merge-patch");

    try (Operator operator = command.operator(command.options::applyTo)) {
      operator.start();
      int port = operator.httpPort();
      await("ready")
          .atMost(Duration.ofSeconds(30))
          .until(() -> get(port, "/readyz").statusCode() == 200);
      assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);

      admin
          .resources(AppDeployment.class)
          .inNamespace(ns.name())
          .resource(
              AppDeployment.of(
                  ns.name(), "cli", new AppDeploymentSpec("nginx:1.27", 1, null, null)))
          .create();
      await("Running")
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                AppDeployment app =
                    admin
                        .resources(AppDeployment.class)
                        .inNamespace(ns.name())
                        .withName("cli")
                        .get();
                return app.getStatus() != null && app.getStatus().phase() == Phase.Running;
              });

      String metrics = get(port, "/metrics").body();
      assertThat(metrics)
          .contains("converge_reconcile_seconds_count{")
          .contains("controller=\"appdeployment\"")
          .contains("jvm_memory_used_bytes");
    }
  }

  @Test
  void anUnknownStrategyFailsAtStartupNamingWhatIsInstalled(LocalCluster cluster) {
    AppOperator command = new AppOperator();
    new CommandLine(command)
        .parseArgs(
            "--kubeconfig",
            cluster.kubeconfig().toString(),
            "--http-port",
            "0",
            "--strategy",
            "apps/v1/Deployment=replace");
    assertThatThrownBy(() -> command.operator(command.options::applyTo))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'replace' (for apps/v1/Deployment)")
        .hasMessageContaining("merge-patch")
        .hasMessageContaining("ssa")
        .hasMessageContaining("update");
  }

  @Test
  void aMisspeltKindFailsAtStartupNamingTheNearOne(LocalCluster cluster) {
    AppOperator command = new AppOperator();
    new CommandLine(command)
        .parseArgs(
            "--kubeconfig",
            cluster.kubeconfig().toString(),
            "--http-port",
            "0",
            "--strategy",
            "apps/v1/Deploymnet=update");
    assertThatThrownBy(
            () -> {
              try (Operator operator = command.operator(command.options::applyTo)) {
                operator.start();
              }
            })
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("apps/v1/Deploymnet: no such kind; did you mean apps/v1/Deployment?");
  }

  @Test
  void servesTheWebhooksWithTheCertificateOfADirectory(
      KubernetesClient admin,
      TestNamespace ns,
      LocalCluster cluster,
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path tls)
      throws Exception {
    AppDeploymentCrd.install(admin, Duration.ofSeconds(30));
    String caBundle =
        dev.converge.webhooks.ServingCertificate.generateInto(tls, java.util.List.of("127.0.0.1"));
    int webhookPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      webhookPort = socket.getLocalPort();
    }
    AppOperator command = new AppOperator();
    new CommandLine(command)
        .parseArgs(
            "--kubeconfig",
            cluster.kubeconfig().toString(),
            "--namespace",
            ns.name(),
            "--http-port",
            "0",
            "--webhook-cert-dir",
            tls.toString(),
            "--webhook-port",
            String.valueOf(webhookPort));

    try (Operator operator = command.operator(command.options::applyTo)) {
      operator.start();
      // The configuration the build generates, pointed at this process and limited to the
      // test's namespace.
      var config =
          dev.converge.webhooks.WebhookManifests.validating(
                  dev.converge.example.webhook.AppWebhooks.create(
                      admin,
                      dev.converge.webhooks.WebhookOptions.defaults()
                          .withNamespaceSelector(
                              new io.fabric8.kubernetes.api.model.LabelSelectorBuilder()
                                  .addToMatchLabels("kubernetes.io/metadata.name", ns.name())
                                  .build())),
                  "app-operator-cli-it",
                  dev.converge.webhooks.ClientTarget.url(
                      "https://127.0.0.1:" + webhookPort, caBundle))
              .orElseThrow();
      admin
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .resource(config)
          .create();
      try {
        assertThatThrownBy(
                () ->
                    admin
                        .resources(AppDeployment.class)
                        .inNamespace(ns.name())
                        .resource(
                            AppDeployment.of(
                                ns.name(),
                                "bad",
                                new AppDeploymentSpec("nginx:1.27:latest", 1, null, null)))
                        .create())
            .hasMessageContaining(
                "denied the request: AppDeployment "
                    + ns.name()
                    + "/bad: spec.image: image reference 'nginx:1.27:latest' is not valid");
      } finally {
        admin
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .resource(config)
            .delete();
      }
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
