package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.crd.CrdInstaller;
import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.example.api.v2.AppDeploymentV2Spec;
import dev.converge.example.api.v2.AppDeploymentV2Spec.NamedPort;
import dev.converge.example.webhook.AppDeploymentConversion;
import dev.converge.example.webhook.AppWebhooks;
import dev.converge.testing.ControlPlaneBinaries;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ProcessLauncher;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import dev.converge.testing.operator.TestCrds;
import dev.converge.webhooks.ClientTarget;
import dev.converge.webhooks.ServingCertificate;
import dev.converge.webhooks.WebhookInstaller;
import dev.converge.webhooks.WebhookOptions;
import dev.converge.webhooks.WebhookServer;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example's webhooks called by kube-apiserver over TLS: what kubectl shows for a refused
 * AppDeployment, the defaulted image tag, and v2 (named ports) converted to and from the stored v1
 * while the operator, which reads v1, runs the app.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentWebhooksIT {

  private static final String CONFIG = "app-operator-webhooks-it";
  private static WebhookServer server;
  private static Webhooks webhooks;
  private static KubernetesClient webhookClient;
  private static String namespace;

  @BeforeAll
  static void start(LocalCluster cluster, TestNamespace ns) {
    namespace = ns.name();
    // The operator's run helper installs the v1 CRD once per JVM; do it first so that it does not
    // replace the two-version CRD installed next.
    TestCrds.installOnce(cluster, AppDeployment.class);
    webhookClient = cluster.newClient();
    CrdInstaller.install(
        webhookClient, List.of(AppDeploymentCrd.generated()), Duration.ofSeconds(30));
    webhooks =
        AppWebhooks.create(
            webhookClient,
            WebhookOptions.defaults()
                .withNamespaceSelector(
                    new LabelSelectorBuilder()
                        .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                        .build()));
    server =
        WebhookServer.builder(webhooks)
            .bindAddress("127.0.0.1")
            .port(0)
            .certificate(ServingCertificate.generateForLoopback())
            .start();
    WebhookInstaller.install(
        webhookClient, webhooks, CONFIG, ClientTarget.of(server), Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (webhookClient != null) {
      webhookClient.resources(AppDeployment.class).inNamespace(namespace).delete();
      WebhookInstaller.uninstall(webhookClient, webhooks, CONFIG);
      webhookClient.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void kubectlShowsWhyAnAppDeploymentIsRefused(KubernetesClient admin, LocalCluster cluster)
      throws Exception {
    Kubectl badImage = kubectlApply(cluster, "bad-image", "image: \"nginx:1.27:latest\"");
    assertThat(badImage.exitCode()).isNotZero();
    assertThat(badImage.stderr())
        .contains(
            "admission webhook"
                + " \"validate-v1.appdeployments.apps.converge.dev\" denied the request: AppDeployment "
                + namespace
                + "/bad-image: spec.image: image reference 'nginx:1.27:latest' is not valid");

    admin
        .services()
        .inNamespace(namespace)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("taken")
                .endMetadata()
                .withNewSpec()
                .addNewPort()
                .withPort(80)
                .endPort()
                .endSpec()
                .build())
        .create();
    Kubectl taken = kubectlApply(cluster, "taken", "image: nginx:1.27");
    assertThat(taken.exitCode()).isNotZero();
    assertThat(taken.stderr())
        .contains(
            "AppDeployment "
                + namespace
                + "/taken: metadata.name:"
                + " Service "
                + namespace
                + "/taken already exists and no AppDeployment controls it");
    assertThat(admin.resources(AppDeployment.class).inNamespace(namespace).list().getItems())
        .extracting(a -> a.getMetadata().getName())
        .doesNotContain("bad-image", "taken");
  }

  @Test
  void anUntaggedImageIsStoredWithItsTagAndAMissingConfigMapIsAWarning(
      KubernetesClient admin, LocalCluster cluster) throws Exception {
    Kubectl created = kubectlApply(cluster, "untagged", "image: nginx\n  configMapName: not-yet");
    assertThat(created.exitCode()).as(created.stderr()).isZero();
    assertThat(created.stderr())
        .contains(
            "Warning: ConfigMap "
                + namespace
                + "/not-yet does not exist yet; the AppDeployment stays Pending until it does");
    AppDeployment stored =
        admin.resources(AppDeployment.class).inNamespace(namespace).withName("untagged").get();
    assertThat(stored.getSpec().image()).isEqualTo("nginx:latest");
    assertThat(stored.getSpec().replicas())
        .as("the schema's default, before the webhook")
        .isEqualTo(1);
  }

  @Test
  void anAppWrittenAsV2RunsAndReadsBackAsWrittenAndV1ReadsAsV2(
      KubernetesClient admin, LocalCluster cluster) {
    try (RunningOperator operator = AppOperatorRun.start(cluster, namespace)) {
      assertThat(operator).isNotNull();
      AppDeploymentV2 v2 = new AppDeploymentV2();
      v2.getMetadata().setName("named-ports");
      v2.setSpec(
          new AppDeploymentV2Spec(
              "nginx:1.27",
              1,
              null,
              List.of(new NamedPort("web", 8080), new NamedPort("metrics", 9090))));
      admin.resources(AppDeploymentV2.class).inNamespace(namespace).resource(v2).create();

      // The operator reads v1: the first port is the Service's.
      await("the operator serves the first v2 port")
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () -> {
                var service = admin.services().inNamespace(namespace).withName("named-ports").get();
                assertThat(service).isNotNull();
                assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(8080);
              });
      AppDeployment asV1 =
          admin.resources(AppDeployment.class).inNamespace(namespace).withName("named-ports").get();
      assertThat(asV1.getSpec().port()).isEqualTo(8080);
      assertThat(asV1.getMetadata().getAnnotations()).containsKey(AppDeploymentConversion.PORTS);

      // The operator's status writes (v1) did not lose v2's ports.
      await("status written")
          .atMost(ClusterState.CONVERGE)
          .until(
              () ->
                  admin
                          .resources(AppDeployment.class)
                          .inNamespace(namespace)
                          .withName("named-ports")
                          .get()
                          .getStatus()
                      != null);
      AppDeploymentV2 back =
          admin
              .resources(AppDeploymentV2.class)
              .inNamespace(namespace)
              .withName("named-ports")
              .get();
      assertThat(back.getSpec())
          .isEqualTo(
              new AppDeploymentV2Spec(
                  "nginx:1.27",
                  1,
                  null,
                  List.of(new NamedPort("web", 8080), new NamedPort("metrics", 9090))));
      assertThat(back.getStatus().phase()).isNotNull();
      assertThat(
              back.getMetadata().getAnnotations() == null
                  ? java.util.Map.of()
                  : back.getMetadata().getAnnotations())
          .doesNotContainKey(AppDeploymentConversion.PORTS);

      // Written as v1, read as v2: the port becomes the one named http.
      admin
          .resources(AppDeployment.class)
          .inNamespace(namespace)
          .resource(
              AppDeployment.of(
                  namespace, "one-port", new AppDeploymentSpec("nginx:1.27", 1, null, 8081)))
          .create();
      assertThat(
              admin
                  .resources(AppDeploymentV2.class)
                  .inNamespace(namespace)
                  .withName("one-port")
                  .get()
                  .getSpec()
                  .ports())
          .containsExactly(new NamedPort("http", 8081));
    }
  }

  record Kubectl(int exitCode, String stderr) {}

  private static Kubectl kubectlApply(LocalCluster cluster, String name, String spec)
      throws IOException {
    Path manifest = Files.createTempFile(name, ".yaml");
    Files.writeString(
        manifest,
        """
        apiVersion: apps.converge.dev/v1
        kind: AppDeployment
        metadata:
          name: %s
          namespace: %s
        spec:
          %s
        """
            .formatted(name, namespace, spec));
    Path err = Files.createTempFile(name, ".err");
    ProcessLauncher.Finished kubectl =
        ProcessLauncher.command(
                ControlPlaneBinaries.locate().kubectl().toString(),
                "--kubeconfig=" + cluster.kubeconfig(),
                "apply",
                "-f",
                manifest.toString())
            .errorLog(err)
            .run(Duration.ofSeconds(60));
    return new Kubectl(kubectl.exitCode(), kubectl.errors());
  }
}
