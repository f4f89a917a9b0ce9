package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the API server: selectable fields filter lists, the CRD carries its labels and annotations, a
 * transition rule with optionalOldSelf runs when a field is first set and refuses a later change, a
 * Quantity the server could not parse is refused at create time, a set refuses duplicates.
 */
@ExtendWith(LocalClusterExtension.class)
class CrdFeaturesIT {

  private static final List<GeneratedCrd> CRDS =
      CrdGenerator.generate(CrdFeaturesTest.Feature.class);
  private static final String API_VERSION = "features.crd.converge.dev/v1";

  @BeforeAll
  static void install(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CrdInstaller.install(client, CRDS, Duration.ofSeconds(60));
    }
  }

  @AfterAll
  static void remove(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      client.apiextensions().v1().customResourceDefinitions().withName(CRDS.get(0).name()).delete();
    }
  }

  private static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      features(KubernetesClient client) {
    return client.genericKubernetesResources(API_VERSION, "Feature");
  }

  private static GenericKubernetesResource feature(String name, Map<String, Object> spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(API_VERSION);
    resource.setKind("Feature");
    resource.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    resource.setAdditionalProperty("spec", new HashMap<>(spec));
    return resource;
  }

  @Test
  void selectableFieldsFilterListsOnTheServer(KubernetesClient client) {
    features(client)
        .resource(feature("red-one", Map.of("color", "red", "nested", Map.of("level", 1))))
        .create();
    features(client)
        .resource(feature("blue-one", Map.of("color", "blue", "nested", Map.of("level", 2))))
        .create();
    features(client)
        .resource(feature("red-two", Map.of("color", "red", "nested", Map.of("level", 2))))
        .create();

    assertThat(features(client).withField("spec.color", "red").list().getItems())
        .extracting(f -> f.getMetadata().getName())
        .containsExactlyInAnyOrder("red-one", "red-two");
    assertThat(features(client).withField("spec.nested.level", "2").list().getItems())
        .extracting(f -> f.getMetadata().getName())
        .containsExactlyInAnyOrder("blue-one", "red-two");
  }

  @Test
  void theCrdCarriesItsLabelsAndAnnotations(KubernetesClient client) {
    CustomResourceDefinition live =
        client.apiextensions().v1().customResourceDefinitions().withName(CRDS.get(0).name()).get();
    assertThat(live.getMetadata().getLabels()).containsEntry("app.kubernetes.io/part-of", "shop");
    assertThat(live.getMetadata().getAnnotations()).containsEntry("example.com/owner", "team-a");
  }

  @Test
  void aTransitionRuleWithOptionalOldSelfAllowsTheFirstValueAndRefusesAChange(
      KubernetesClient client) {
    GenericKubernetesResource created =
        features(client).resource(feature("owned", Map.of("color", "red"))).create();
    Map<String, Object> spec = created.get("spec");
    spec.put("owner", "team-a");
    GenericKubernetesResource owned = features(client).resource(created).update();
    assertThat(owned.<Object>get("spec", "owner")).isEqualTo("team-a");

    Map<String, Object> changed = owned.get("spec");
    changed.put("owner", "team-b");
    assertThatThrownBy(() -> features(client).resource(owned).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(e.getMessage()).contains("spec.owner", "owner is set once");
            });
  }

  @Test
  void aQuantityTheServerCannotParseIsRefusedAtCreateTime(KubernetesClient client) {
    assertThatThrownBy(
            () -> features(client).resource(feature("lots", Map.of("memory", "lots"))).create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(e.getMessage()).contains("spec.memory", "should match");
            });
    GenericKubernetesResource fine =
        features(client).resource(feature("plenty", Map.of("memory", "512Mi"))).create();
    assertThat(fine.<Object>get("spec", "memory")).isEqualTo("512Mi");
  }

  @Test
  void aJavaSetRefusesDuplicates(KubernetesClient client) {
    assertThatThrownBy(
            () ->
                features(client)
                    .resource(feature("twice", Map.of("names", List.of("a", "a"))))
                    .create())
        .isInstanceOfSatisfying(
            KubernetesClientException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(422);
              assertThat(e.getMessage()).contains("spec.names[1]", "Duplicate value");
            });
  }
}
