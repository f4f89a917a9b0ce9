package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.sample.Workload;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A custom resource that embeds a pod template merges like a Deployment under server-side apply:
 * one field manager owns the application container, another adds a sidecar container, and both
 * survive, because the generated schema carries the upstream {@code x-kubernetes-list-type: map}
 * keyed by {@code name} for containers (and by {@code containerPort}, {@code protocol} for ports,
 * with the {@code TCP} default).
 *
 * <p>The control is the same resource under a schema without those list semantics, which is what
 * the generator produced for embedded fabric8 types before it carried them: there the sidecar's
 * apply replaces the whole list and the application container is gone.
 */
@ExtendWith(LocalClusterExtension.class)
class EmbeddedPodTemplateMergeIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final GeneratedCrd GENERATED = CrdGenerator.generate(Workload.class).get(0);
  private static final String GROUP = "workloads.crd.converge.dev";
  private static final String ATOMIC_GROUP = "atomic-workloads.crd.converge.dev";

  @BeforeAll
  static void installBothSchemas(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      CrdInstaller.install(
          client, List.of(GENERATED, withoutListSemantics(GENERATED)), Duration.ofSeconds(60));
    }
  }

  @AfterAll
  static void removeCrds(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName("workloads." + GROUP)
          .delete();
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName("workloads." + ATOMIC_GROUP)
          .delete();
    }
  }

  @Test
  void twoFieldManagersEachKeepTheirContainer(KubernetesClient client) {
    assertThat(
            schemaAt(GENERATED, "template", "spec", "containers")
                .get("x-kubernetes-list-type")
                .asString())
        .isEqualTo("map");

    apply(client, GROUP, "app-operator", appContainer("nginx:1.27"));
    apply(client, GROUP, "sidecar-injector", sidecarContainer());
    GenericKubernetesResource live =
        apply(client, GROUP, "app-operator", appContainer("nginx:1.28"));

    assertThat(containerNames(live)).containsExactly("app", "sidecar");
    assertThat(container(live, "app").get("image"))
        .as("the owner's later change applied")
        .isEqualTo("nginx:1.28");
    assertThat(container(live, "sidecar").get("image")).isEqualTo("busybox:1.36");
    List<Map<String, Object>> ports = list(container(live, "app").get("ports"));
    assertThat(ports)
        .singleElement()
        .satisfies(port -> assertThat(port).containsEntry("protocol", "TCP"));
    assertThat(managersOfContainer(live, "sidecar")).containsExactly("sidecar-injector");
    assertThat(managersOfContainer(live, "app")).containsExactly("app-operator");
  }

  @Test
  void withoutTheListSemanticsTheSidecarReplacesTheApplicationContainer(KubernetesClient client) {
    apply(client, ATOMIC_GROUP, "app-operator", appContainer("nginx:1.27"));
    GenericKubernetesResource live =
        apply(client, ATOMIC_GROUP, "sidecar-injector", sidecarContainer());

    assertThat(containerNames(live))
        .as("an atomic list belongs to its last writer")
        .containsExactly("sidecar");
  }

  // ---------------------------------------------------------------- helpers

  private static GenericKubernetesResource apply(
      KubernetesClient client, String group, String manager, Map<String, Object> container) {
    Map<String, Object> object =
        Map.of(
            "apiVersion",
            group + "/v1",
            "kind",
            "Workload",
            "metadata",
            Map.of("name", "web", "namespace", client.getNamespace()),
            "spec",
            Map.of("template", Map.of("spec", Map.of("containers", List.of(container)))));
    GenericKubernetesResource resource = JSON.convertValue(object, GenericKubernetesResource.class);
    return client
        .genericKubernetesResources(group + "/v1", "Workload")
        .resource(resource)
        .fieldManager(manager)
        .forceConflicts()
        .serverSideApply();
  }

  private static Map<String, Object> appContainer(String image) {
    return Map.of("name", "app", "image", image, "ports", List.of(Map.of("containerPort", 8080)));
  }

  private static Map<String, Object> sidecarContainer() {
    return Map.of("name", "sidecar", "image", "busybox:1.36");
  }

  private static List<Map<String, Object>> containers(GenericKubernetesResource live) {
    return list(live.<Object>get("spec", "template", "spec", "containers"));
  }

  private static List<String> containerNames(GenericKubernetesResource live) {
    return containers(live).stream().map(c -> (String) c.get("name")).toList();
  }

  private static Map<String, Object> container(GenericKubernetesResource live, String name) {
    return containers(live).stream()
        .filter(c -> name.equals(c.get("name")))
        .findFirst()
        .orElseThrow();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    return (List<Map<String, Object>>) value;
  }

  /** Managers whose managed fields name this container by its key, {@code k:{"name":"..."}}. */
  private static List<String> managersOfContainer(GenericKubernetesResource live, String name) {
    String key = JSON.writeValueAsString("k:{\"name\":\"" + name + "\"}");
    return live.getMetadata().getManagedFields().stream()
        .filter(entry -> SERIALIZATION.asJson(entry.getFieldsV1()).contains(key))
        .map(ManagedFieldsEntry::getManager)
        .distinct()
        .toList();
  }

  private static JsonNode schemaAt(GeneratedCrd crd, String... properties) {
    JsonNode node =
        SERIALIZATION
            .convertValue(
                crd.definition().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema(),
                JsonNode.class)
            .at("/properties/spec");
    for (String property : properties) {
      node = node.at("/properties/" + property);
    }
    return node;
  }

  /** The same CRD under another group, with every list and map type removed from its schema. */
  private static GeneratedCrd withoutListSemantics(GeneratedCrd crd) {
    ObjectNode tree = SERIALIZATION.convertValue(crd.definition(), ObjectNode.class);
    strip(tree.at("/spec/versions/0/schema/openAPIV3Schema"));
    ((ObjectNode) tree.get("metadata")).put("name", "workloads." + ATOMIC_GROUP);
    ((ObjectNode) tree.get("spec")).put("group", ATOMIC_GROUP);
    CustomResourceDefinition definition =
        SERIALIZATION.convertValue(tree, CustomResourceDefinition.class);
    return new GeneratedCrd("workloads." + ATOMIC_GROUP, definition, crd.yaml());
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove(
          List.of("x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type"));
      object.forEach(EmbeddedPodTemplateMergeIT::strip);
    } else if (node.isArray()) {
      node.forEach(EmbeddedPodTemplateMergeIT::strip);
    }
  }
}
