package dev.converge.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.testing.ControlPlaneBinaries;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ProcessLauncher;
import dev.converge.testing.TestNamespace;
import dev.converge.webhooks.internal.WebhookMetrics;
import dev.converge.webhooks.sample.Gadget;
import dev.converge.webhooks.sample.GadgetConversion;
import dev.converge.webhooks.sample.GadgetSpec;
import dev.converge.webhooks.sample.GadgetV2;
import dev.converge.webhooks.sample.GadgetV2Spec;
import dev.converge.webhooks.sample.GadgetV2Spec.NamedPort;
import dev.converge.webhooks.sample.GadgetWebhooks;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kube-apiserver of the local control plane calls the webhooks over TLS (the CA generated at start
 * is in the configurations and the CRD): a denial as kubectl prints it, a warning, a defaulted
 * field, v1 and v2 of one object with nothing lost, a handler that throws or hangs, and the failure
 * policies with the webhook down.
 */
@ExtendWith(LocalClusterExtension.class)
class WebhooksIT {

  private static final String CONFIG = "gadgets-webhooks-it";
  private static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();
  private static WebhookServer server;
  private static Webhooks webhooks;
  private static String namespace;
  private static final List<KubernetesClient> CLIENTS =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeAll
  static void start(LocalCluster cluster, TestNamespace ns) {
    namespace = ns.name();
    try (KubernetesClient admin = cluster.newClient()) {
      CrdInstaller.install(
          admin, CrdGenerator.generate(Gadget.class, GadgetV2.class), Duration.ofSeconds(30));
      KubernetesClient forValidator = cluster.newClient();
      CLIENTS.add(forValidator);
      webhooks = GadgetWebhooks.create(forValidator, namespace);
      server =
          WebhookServer.builder(webhooks)
              .bindAddress("127.0.0.1")
              .port(0)
              .certificate(ServingCertificate.generateForLoopback())
              .meterRegistry(METERS)
              .start();
      WebhookInstaller.install(
          admin, webhooks, CONFIG, ClientTarget.of(server), Duration.ofSeconds(30));
    }
  }

  @AfterAll
  static void stop(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      if (webhooks != null) {
        WebhookInstaller.uninstall(admin, webhooks, CONFIG);
      }
    }
    if (server != null) {
      server.close();
    }
    CLIENTS.forEach(KubernetesClient::close);
  }

  @Test
  void aDeniedCreateShowsTheFieldAndReasonInKubectl(KubernetesClient admin, LocalCluster cluster)
      throws Exception {
    Path manifest = Files.createTempFile("gadget", ".yaml");
    Files.writeString(
        manifest,
        """
        apiVersion: samples.webhooks.converge.dev/v1
        kind: Gadget
        metadata:
          name: dangling
          namespace: %s
        spec:
          color: red
          configMapName: missing-settings
        """
            .formatted(namespace));
    Kubectl result = kubectl(cluster, "apply", "-f", manifest.toString());

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr())
        .contains(
            "admission webhook \"validate-v1.gadgets.samples.webhooks.converge.dev\" denied the request: "
                + "Gadget "
                + namespace
                + "/dangling: spec.configMapName: ConfigMap "
                + namespace
                + "/missing-settings does not exist; create it first");
    assertThat(admin.resources(Gadget.class).inNamespace(namespace).withName("dangling").get())
        .isNull();

    admin
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("missing-settings")
                .endMetadata()
                .addToData("k", "v")
                .build())
        .create();
    Kubectl retried = kubectl(cluster, "apply", "-f", manifest.toString());
    assertThat(retried.exitCode()).as(retried.stderr()).isZero();
    assertThat(admin.resources(Gadget.class).inNamespace(namespace).withName("dangling").get())
        .isNotNull();

    assertThat(
            METERS.get(WebhookMetrics.DENIALS).tag("field", "spec.configMapName").counter().count())
        .isGreaterThanOrEqualTo(1.0);
    assertThat(
            METERS
                .get(WebhookMetrics.REQUESTS)
                .tag("webhook", "validate")
                .tag("outcome", "denied")
                .timer()
                .count())
        .isGreaterThanOrEqualTo(1L);
  }

  @Test
  void aWarningReachesKubectl(LocalCluster cluster) throws Exception {
    Path manifest = Files.createTempFile("gadget", ".yaml");
    Files.writeString(
        manifest,
        """
        apiVersion: samples.webhooks.converge.dev/v1
        kind: Gadget
        metadata:
          name: low-port
          namespace: %s
        spec:
          port: 80
        """
            .formatted(namespace));
    Kubectl result = kubectl(cluster, "create", "-f", manifest.toString());

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stderr())
        .contains(
            "Warning: spec.port 80 is privileged; the container must run as root to listen on it");
  }

  @Test
  void theDefaulterSetsFieldsTheServerStores(KubernetesClient admin) {
    admin
        .resources(Gadget.class)
        .inNamespace(namespace)
        .resource(Gadget.of("plain", new GadgetSpec(null, 8080, null)))
        .create();

    Gadget stored = admin.resources(Gadget.class).inNamespace(namespace).withName("plain").get();
    assertThat(stored.getSpec()).isEqualTo(new GadgetSpec("blue", 8080, null));
    assertThat(stored.getMetadata().getLabels())
        .containsEntry("samples.webhooks.converge.dev/defaulted", "true");
  }

  @Test
  void theDefaulterLeavesFieldsItsJavaTypeDoesNotKnow(KubernetesClient admin) {
    // An unknown field is pruned by the schema, so the test uses one the schema keeps: a label
    // and an annotation the Java code never sets must come back as sent.
    GenericKubernetesResource raw = new GenericKubernetesResource();
    raw.setApiVersion("samples.webhooks.converge.dev/v1");
    raw.setKind("Gadget");
    raw.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("raw")
            .withNamespace(namespace)
            .addToLabels("team", "a")
            .addToAnnotations("note", "keep me")
            .build());
    raw.setAdditionalProperty("spec", Map.of("color", "green", "port", 9000));
    admin
        .genericKubernetesResources("samples.webhooks.converge.dev/v1", "Gadget")
        .inNamespace(namespace)
        .resource(raw)
        .create();

    Gadget stored = admin.resources(Gadget.class).inNamespace(namespace).withName("raw").get();
    assertThat(stored.getSpec()).isEqualTo(new GadgetSpec("green", 9000, null));
    assertThat(stored.getMetadata().getLabels())
        .containsEntry("team", "a")
        .containsEntry("samples.webhooks.converge.dev/defaulted", "true");
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("note", "keep me");
  }

  @Test
  void anObjectWrittenAsV1ReadsAsV2AndBackWithNothingLost(KubernetesClient admin) {
    admin
        .resources(Gadget.class)
        .inNamespace(namespace)
        .resource(Gadget.of("multi", new GadgetSpec("red", 8080, null)))
        .create();

    GadgetV2 asV2 = admin.resources(GadgetV2.class).inNamespace(namespace).withName("multi").get();
    assertThat(asV2.getApiVersion()).isEqualTo("samples.webhooks.converge.dev/v2");
    assertThat(asV2.getSpec())
        .isEqualTo(new GadgetV2Spec("red", List.of(new NamedPort("http", 8080)), null));

    // Written as v2 with what v1 cannot hold: a second port and a name other than http.
    asV2.setSpec(
        new GadgetV2Spec(
            "red", List.of(new NamedPort("web", 8080), new NamedPort("metrics", 9090)), null));
    admin.resources(GadgetV2.class).inNamespace(namespace).resource(asV2).update();

    Gadget asV1 = admin.resources(Gadget.class).inNamespace(namespace).withName("multi").get();
    assertThat(asV1.getSpec()).isEqualTo(new GadgetSpec("red", 8080, null));
    assertThat(asV1.getMetadata().getAnnotations()).containsKey(GadgetConversion.PORTS_ANNOTATION);

    // A v1 client changes the port; v2 still has both ports, the first one changed.
    asV1.setSpec(new GadgetSpec("red", 8081, null));
    admin.resources(Gadget.class).inNamespace(namespace).resource(asV1).update();
    GadgetV2 again = admin.resources(GadgetV2.class).inNamespace(namespace).withName("multi").get();
    assertThat(again.getSpec())
        .isEqualTo(
            new GadgetV2Spec(
                "red", List.of(new NamedPort("web", 8081), new NamedPort("metrics", 9090)), null));
    assertThat(
            again.getMetadata().getAnnotations() == null
                ? Map.of()
                : again.getMetadata().getAnnotations())
        .doesNotContainKey(GadgetConversion.PORTS_ANNOTATION);

    // A list of v2 objects converts every item.
    assertThat(admin.resources(GadgetV2.class).inNamespace(namespace).list().getItems())
        .allSatisfy(g -> assertThat(g.getApiVersion()).endsWith("/v2"));
    assertThat(METERS.get(WebhookMetrics.REQUESTS).tag("webhook", "convert").timer().count())
        .isPositive();
  }

  @Test
  void aHandlerThatThrowsBecomesADenialWithItsMessage(LocalCluster cluster) {
    KubernetesClient admin = noRetries(cluster);
    assertThatThrownBy(
            () ->
                admin
                    .resources(Gadget.class)
                    .inNamespace(namespace)
                    .resource(Gadget.of("thrower", new GadgetSpec(GadgetWebhooks.THROWS, 1, null)))
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(
            "Gadget "
                + namespace
                + "/thrower: the validating webhook failed:"
                + " IllegalStateException: the colour service is unreachable");
  }

  @Test
  void aHandlerThatHangsIsCutOffBeforeTheServerGivesUp(LocalCluster cluster) {
    KubernetesClient admin = noRetries(cluster);
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                admin
                    .resources(Gadget.class)
                    .inNamespace(namespace)
                    .resource(Gadget.of("hanger", new GadgetSpec(GadgetWebhooks.HANGS, 1, null)))
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(
            "Gadget "
                + namespace
                + "/hanger: the validating webhook failed:"
                + " did not answer within 2250 ms");
    // Answered by the webhook (2.25 s), before the API server's own 3 s timeout would have
    // turned it into "context deadline exceeded".
    System.out.printf(
        "a hanging validator was answered for after %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    assertThat(METERS.get(WebhookMetrics.REQUESTS).tag("outcome", "error").timer().count())
        .isPositive();
  }

  @Test
  void withTheWebhookDownFailRefusesAndIgnoreAdmits(LocalCluster cluster, TestNamespace ns)
      throws Exception {
    KubernetesClient admin = noRetries(cluster);
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    ClientTarget down =
        ClientTarget.url(
            "https://127.0.0.1:" + closedPort, server.certificate().caBundle().orElseThrow());
    WebhookOptions inThisNamespace =
        WebhookOptions.defaults()
            .withTimeoutSeconds(2)
            .withNamespaceSelector(
                new LabelSelectorBuilder()
                    .addToMatchLabels("kubernetes.io/metadata.name", ns.name())
                    .build());
    Webhooks failing =
        Webhooks.builder()
            .validate(
                Gadget.class,
                a -> Verdict.allow(),
                inThisNamespace.withFailurePolicy(FailurePolicy.Fail))
            .build();
    Webhooks ignoring =
        Webhooks.builder()
            .validate(
                Gadget.class,
                a -> Verdict.allow(),
                inThisNamespace.withFailurePolicy(FailurePolicy.Ignore))
            .build();
    try {
      WebhookInstaller.install(admin, failing, "gadgets-down", down, Duration.ofSeconds(10));
      assertThatThrownBy(
              () ->
                  admin
                      .resources(Gadget.class)
                      .inNamespace(ns.name())
                      .resource(Gadget.of("refused", new GadgetSpec("red", 8080, null)))
                      .create())
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining(
              "failed calling webhook \"validate-v1.gadgets.samples.webhooks.converge.dev\"")
          .hasMessageContaining("connection refused");

      WebhookInstaller.install(admin, ignoring, "gadgets-down", down, Duration.ofSeconds(10));
      admin
          .resources(Gadget.class)
          .inNamespace(ns.name())
          .resource(Gadget.of("admitted", new GadgetSpec("red", 8080, null)))
          .create();
      assertThat(admin.resources(Gadget.class).inNamespace(ns.name()).withName("admitted").get())
          .isNotNull();
    } finally {
      admin
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .withName("gadgets-down")
          .delete();
    }
  }

  @Test
  void theApiServerTrustsARenewedCertificateReadFromFiles(
      LocalCluster cluster, @org.junit.jupiter.api.io.TempDir Path tls) throws Exception {
    KubernetesClient admin = noRetries(cluster);
    var first =
        dev.converge.webhooks.internal.GeneratedCertificate.create(
            List.of("127.0.0.1"), Duration.ofDays(1));
    var renewed =
        dev.converge.webhooks.internal.GeneratedCertificate.create(
            List.of("127.0.0.1"), Duration.ofDays(1));
    Files.writeString(tls.resolve("tls.crt"), first.certificatePem());
    Files.writeString(tls.resolve("tls.key"), first.serving().privateKeyPem());
    Webhooks checking =
        Webhooks.builder()
            .validate(
                Gadget.class,
                a -> Verdict.allow(),
                WebhookOptions.defaults()
                    .withNamespaceSelector(
                        new LabelSelectorBuilder()
                            .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                            .build()))
            .build();
    try (ServingCertificate files =
            ServingCertificate.fromFiles(
                tls.resolve("tls.crt"), tls.resolve("tls.key"), Duration.ofMillis(100));
        WebhookServer fromFiles =
            WebhookServer.builder(checking)
                .bindAddress("127.0.0.1")
                .port(0)
                .certificate(files)
                .start()) {
      String url = "https://127.0.0.1:" + fromFiles.port();
      WebhookInstaller.install(
          admin,
          checking,
          "gadgets-renewal",
          ClientTarget.url(url, first.caBundle().orElseThrow()),
          Duration.ofSeconds(10));
      admin
          .resources(Gadget.class)
          .inNamespace(namespace)
          .resource(Gadget.of("before-renewal", new GadgetSpec("red", 8080, null)))
          .create();

      // The renewal: new files from another CA, and the configuration trusting only that CA. The
      // API server's next handshake succeeds only if the server now presents the new certificate.
      Files.writeString(tls.resolve("tls.key"), renewed.serving().privateKeyPem());
      Files.writeString(tls.resolve("tls.crt"), renewed.certificatePem());
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> files.certificatePem().equals(renewed.certificatePem()));
      WebhookInstaller.install(
          admin,
          checking,
          "gadgets-renewal",
          ClientTarget.url(url, renewed.caBundle().orElseThrow()),
          Duration.ofSeconds(10));
      java.util.concurrent.atomic.AtomicInteger attempt =
          new java.util.concurrent.atomic.AtomicInteger();
      org.awaitility.Awaitility.await("a create through the renewed certificate")
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  admin
                      .resources(Gadget.class)
                      .inNamespace(namespace)
                      .resource(
                          Gadget.of(
                              "after-renewal-" + attempt.incrementAndGet(),
                              new GadgetSpec("red", 8080, null)))
                      .create());
    } finally {
      admin
          .admissionRegistration()
          .v1()
          .validatingWebhookConfigurations()
          .withName("gadgets-renewal")
          .delete();
    }
  }

  /**
   * A handler failure and an unreachable webhook come back as 500, which fabric8 retries (ten times
   * with backoff, by default); these tests look at one answer.
   */
  private static KubernetesClient noRetries(LocalCluster cluster) {
    KubernetesClient client =
        new io.fabric8.kubernetes.client.KubernetesClientBuilder()
            .withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(cluster.config())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    CLIENTS.add(client);
    return client;
  }

  record Kubectl(int exitCode, String stdout, String stderr) {}

  private static Kubectl kubectl(LocalCluster cluster, String... args) throws IOException {
    List<String> command = new java.util.ArrayList<>();
    command.add(ControlPlaneBinaries.locate().kubectl().toString());
    command.add("--kubeconfig=" + cluster.kubeconfig());
    command.addAll(List.of(args));
    Path err = Files.createTempFile("kubectl", ".err");
    ProcessLauncher.Finished finished =
        ProcessLauncher.command(command).errorLog(err).run(Duration.ofSeconds(60));
    Files.deleteIfExists(err);
    return new Kubectl(finished.exitCode(), finished.output(), finished.errors());
  }
}
