package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.sample.AppDeployment;
import dev.converge.crd.sample.AppDeploymentSpec;
import dev.converge.crd.sample.AppDeploymentStatus;
import dev.converge.testing.ControlPlaneBinaries;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ProcessLauncher;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The AppDeployment sample on the real API server: its kubebuilder markers are enforced, the server
 * fills in defaults, {@code kubectl get} shows the printer columns, and status is only writable
 * through the status subresource.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentIT {

  private static final List<GeneratedCrd> CRDS = CrdGenerator.generate(AppDeployment.class);

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CrdInstaller.install(client, CRDS, Duration.ofSeconds(60));
    }
  }

  @AfterAll
  static void removeCrd(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      client.apiextensions().v1().customResourceDefinitions().withName(CRDS.get(0).name()).delete();
    }
  }

  private static AppDeployment app(String name, String image) {
    AppDeployment app = new AppDeployment();
    app.setMetadata(new ObjectMetaBuilder().withName(name).build());
    AppDeploymentSpec spec = new AppDeploymentSpec();
    spec.image = image;
    app.setSpec(spec);
    return app;
  }

  @Test
  void defaultsAreFilledInByTheServer(KubernetesClient client) {
    // Sent without replicas and port: the generic client does not serialise Java field
    // initialisers.
    GenericKubernetesResource raw = new GenericKubernetesResource();
    raw.setApiVersion("sample.crd.converge.dev/v1");
    raw.setKind("AppDeployment");
    raw.setMetadata(new ObjectMetaBuilder().withName("defaults").build());
    raw.setAdditionalProperty("spec", Map.of("image", "nginx:1.27"));
    GenericKubernetesResource created =
        client
            .genericKubernetesResources("sample.crd.converge.dev/v1", "AppDeployment")
            .resource(raw)
            .create();
    assertThat(created.<Object>get("spec", "replicas")).isEqualTo(1);
    assertThat(created.<Object>get("spec", "port")).isEqualTo(8080);
    Map<String, Object> spec = created.get("spec");
    assertThat(spec).doesNotContainKey("configMapName");
  }

  @Test
  void imageIsRequiredAndReplicasAtLeastOne(KubernetesClient client) {
    assertThatThrownBy(
            () -> client.resources(AppDeployment.class).resource(app("no-image", null)).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> assertThat(e.getMessage()).contains("spec.image", "Required value"));
    AppDeployment zero = app("zero", "nginx:1.27");
    zero.getSpec().replicas = 0;
    assertThatThrownBy(() -> client.resources(AppDeployment.class).resource(zero).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e ->
                assertThat(e.getMessage()).contains("spec.replicas", "greater than or equal to 1"));
  }

  @Test
  void statusIsOnlyWritableThroughTheSubresource(KubernetesClient client) {
    AppDeployment app = app("status", "nginx:1.27");
    AppDeploymentStatus status = new AppDeploymentStatus();
    status.phase = "Running";
    status.readyReplicas = 3;
    app.setStatus(status);
    AppDeployment created = client.resources(AppDeployment.class).resource(app).create();
    assertThat(created.getStatus()).as("status sent with create is dropped").isNull();

    created.setStatus(status);
    AppDeployment updated = client.resources(AppDeployment.class).resource(created).update();
    assertThat(updated.getStatus())
        .as("status sent with an update of the main resource is dropped")
        .isNull();
    long generation = updated.getMetadata().getGeneration();

    updated.setStatus(status);
    AppDeployment written = client.resources(AppDeployment.class).resource(updated).updateStatus();
    assertThat(written.getStatus().phase).isEqualTo("Running");
    assertThat(written.getStatus().readyReplicas).isEqualTo(3);
    assertThat(written.getMetadata().getGeneration())
        .as("status writes do not bump generation")
        .isEqualTo(generation);

    written.getSpec().replicas = 2;
    written.getStatus().phase = "Changed";
    AppDeployment specChanged = client.resources(AppDeployment.class).resource(written).update();
    assertThat(specChanged.getSpec().replicas).isEqualTo(2);
    assertThat(specChanged.getStatus().phase)
        .as("the main resource cannot change status")
        .isEqualTo("Running");
    assertThat(specChanged.getMetadata().getGeneration()).isEqualTo(generation + 1);
  }

  @Test
  void theServerServesThePrinterColumnsAsATable(KubernetesClient client, TestNamespace namespace)
      throws Exception {
    client.resources(AppDeployment.class).resource(app("table", "nginx:1.27")).create();
    String url =
        client.getMasterUrl().toString().replaceAll("/$", "")
            + "/apis/sample.crd.converge.dev/v1/namespaces/"
            + namespace.name()
            + "/appdeployments";
    HttpRequest request =
        client
            .getHttpClient()
            .newHttpRequestBuilder()
            .uri(url)
            .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
            .build();
    HttpResponse<String> response =
        client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    assertThat(response.code()).isEqualTo(200);
    JsonNode table = JsonMapper.builder().build().readTree(response.body());
    assertThat(table.get("kind").asString()).isEqualTo("Table");
    assertThat(
            table
                .get("columnDefinitions")
                .valueStream()
                .map(c -> c.get("name").asString())
                .toList())
        .containsExactly("Name", "Image", "Replicas", "Ready", "Phase", "Age");
    JsonNode cells = table.at("/rows/0/cells");
    assertThat(cells.get(0).asString()).isEqualTo("table");
    assertThat(cells.get(1).asString()).isEqualTo("nginx:1.27");
    assertThat(cells.get(2).asInt()).isEqualTo(1);
  }

  @Test
  void kubectlGetShowsThePrinterColumns(
      KubernetesClient client, TestNamespace namespace, LocalCluster cluster) throws IOException {
    client.resources(AppDeployment.class).resource(app("shown", "nginx:1.27")).create();
    ProcessLauncher.Finished kubectl =
        ProcessLauncher.command(
                ControlPlaneBinaries.locate().kubectl().toString(),
                "--kubeconfig",
                cluster.kubeconfig().toString(),
                "get",
                "appdeployments",
                "-n",
                namespace.name())
            .run(Duration.ofSeconds(60));
    String output = kubectl.output();
    assertThat(kubectl.exitCode()).as(output).isZero();
    List<String> lines = output.lines().toList();
    assertThat(lines.get(0).split("\\s+"))
        .containsExactly("NAME", "IMAGE", "REPLICAS", "READY", "PHASE", "AGE");
    assertThat(lines.get(1).split("\\s+")).startsWith("shown", "nginx:1.27", "1");
  }
}
