package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several versions of one kind on the real API server (deprecation warning, a version that is not
 * served, objects readable through every served version) and the scale subresource.
 */
@ExtendWith(LocalClusterExtension.class)
class VersionsAndScaleIT {

  private static final List<GeneratedCrd> CRDS =
      CrdGenerator.generate(
          CustomResourceDefinitionTest.GadgetV1Alpha1.class,
          CustomResourceDefinitionTest.GadgetV1Beta1.class,
          CustomResourceDefinitionTest.GadgetV1.class,
          CustomResourceDefinitionTest.Replicated.class);

  @BeforeAll
  static void installCrds(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CrdInstaller.install(client, CRDS, Duration.ofSeconds(60));
    }
  }

  @AfterAll
  static void removeCrds(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CRDS.forEach(
          crd ->
              client
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(crd.name())
                  .delete());
    }
  }

  private static HttpResponse<String> send(KubernetesClient client, HttpRequest.Builder request)
      throws Exception {
    return client
        .getHttpClient()
        .sendAsync(request.build(), String.class)
        .get(30, TimeUnit.SECONDS);
  }

  private static String url(KubernetesClient client, String path) {
    return client.getMasterUrl().toString().replaceAll("/$", "") + path;
  }

  @Test
  void aDeprecatedVersionWarnsAndAnUnservedVersionIsNotThere(KubernetesClient client)
      throws Exception {
    // Gadgets are cluster-scoped (the classes do not implement Namespaced).
    String body =
        "{\"apiVersion\":\"gadgets.crd.converge.dev/v1alpha1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"old\"},\"spec\":{\"model\":\"m1\"}}";
    HttpResponse<String> created =
        send(
            client,
            client
                .getHttpClient()
                .newHttpRequestBuilder()
                .uri(url(client, "/apis/gadgets.crd.converge.dev/v1alpha1/gadgets"))
                .post("application/json", body));
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(created.headers("Warning"))
        .anySatisfy(w -> assertThat(w).contains("gadgets v1alpha1 is going away"));

    GenericKubernetesResource asV1 =
        client
            .genericKubernetesResources("gadgets.crd.converge.dev/v1", "Gadget")
            .withName("old")
            .get();
    assertThat(asV1.getApiVersion()).isEqualTo("gadgets.crd.converge.dev/v1");
    assertThat(asV1.<Object>get("spec", "model")).isEqualTo("m1");

    HttpResponse<String> served =
        send(
            client,
            client
                .getHttpClient()
                .newHttpRequestBuilder()
                .uri(url(client, "/apis/gadgets.crd.converge.dev/v1/gadgets")));
    assertThat(served.code()).isEqualTo(200);
    HttpResponse<String> unserved =
        send(
            client,
            client
                .getHttpClient()
                .newHttpRequestBuilder()
                .uri(url(client, "/apis/gadgets.crd.converge.dev/v1beta1/gadgets")));
    assertThat(unserved.code()).isEqualTo(404);
  }

  @Test
  void anObjectWrittenAsV1IsReadableAsV1Alpha1(KubernetesClient client) {
    GenericKubernetesResource v1 = new GenericKubernetesResource();
    v1.setApiVersion("gadgets.crd.converge.dev/v1");
    v1.setKind("Gadget");
    v1.setMetadata(new ObjectMetaBuilder().withName("new").build());
    v1.setAdditionalProperty("spec", java.util.Map.of("model", "m2", "weight", 7));
    client
        .genericKubernetesResources("gadgets.crd.converge.dev/v1", "Gadget")
        .resource(v1)
        .create();
    GenericKubernetesResource asAlpha =
        client
            .genericKubernetesResources("gadgets.crd.converge.dev/v1alpha1", "Gadget")
            .withName("new")
            .get();
    assertThat(asAlpha.<Object>get("spec", "model")).isEqualTo("m2");
  }

  @Test
  void theScaleSubresourceDrivesSpecReplicas(KubernetesClient client) {
    CustomResourceDefinitionTest.Replicated replicated =
        new CustomResourceDefinitionTest.Replicated();
    replicated.setMetadata(new ObjectMetaBuilder().withName("scaled").build());
    replicated.setSpec(new CustomResourceDefinitionTest.ReplicatedSpec());
    replicated.getSpec().replicas = 2;
    client.resources(CustomResourceDefinitionTest.Replicated.class).resource(replicated).create();

    Scale scale =
        client.resources(CustomResourceDefinitionTest.Replicated.class).withName("scaled").scale();
    assertThat(scale.getSpec().getReplicas()).isEqualTo(2);
    client.resources(CustomResourceDefinitionTest.Replicated.class).withName("scaled").scale(5);
    assertThat(
            client
                .resources(CustomResourceDefinitionTest.Replicated.class)
                .withName("scaled")
                .get()
                .getSpec()
                .replicas)
        .isEqualTo(5);
  }
}
