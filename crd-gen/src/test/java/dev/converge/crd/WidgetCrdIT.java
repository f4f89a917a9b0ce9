package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared Widget test CRD as the API server serves it once {@link CrdInstaller} returns: no
 * retry before the first object, status through {@code /status} only, unknown fields kept where no
 * schema is given, a typed spec pruned and defaulted, {@code /scale} writing the path it names.
 */
@ExtendWith(LocalClusterExtension.class)
class WidgetCrdIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final List<String> INSTALLED = new java.util.concurrent.CopyOnWriteArrayList<>();

  @AfterAll
  static void removeCrds(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      for (String name : INSTALLED) {
        admin.apiextensions().v1().customResourceDefinitions().withName(name).delete();
      }
    }
  }

  private static WidgetCrd install(KubernetesClient client, WidgetCrd widget) {
    CustomResourceDefinition crd = widget.build();
    INSTALLED.add(widget.name());
    CrdInstaller.install(client, crd, TIMEOUT);
    return widget;
  }

  private static GenericKubernetesResource widget(
      WidgetCrd crd, String name, Map<String, Object> spec, Map<String, Object> status) {
    GenericKubernetesResource widget = new GenericKubernetesResource();
    widget.setApiVersion(crd.apiVersion());
    widget.setKind(crd.kind());
    widget.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    widget.setAdditionalProperty("spec", spec);
    if (status != null) {
      widget.setAdditionalProperty("status", status);
    }
    return widget;
  }

  @Test
  void theDefaultWidgetKeepsAnySpecAndTakesItsStatusOnlyThroughTheSubresource(
      KubernetesClient client) {
    WidgetCrd crd = install(client, WidgetCrd.inGroup("plain.widgetcrd.converge.dev"));
    var widgets = client.genericKubernetesResources(crd.apiVersion(), crd.kind());

    // created right after install returned: the kind is served
    GenericKubernetesResource created =
        widgets
            .resource(
                widget(
                    crd,
                    "open",
                    Map.of("anything", Map.of("nested", "kept")),
                    Map.of("phase", "ignored")))
            .create();

    assertThat(created.get("spec", "anything", "nested").toString()).isEqualTo("kept");
    assertThat(created.getAdditionalProperties()).doesNotContainKey("status");

    created.setAdditionalProperty("status", Map.of("phase", "Running"));
    widgets.resource(created).updateStatus();
    GenericKubernetesResource read = widgets.withName("open").get();
    assertThat(read.get("status", "phase").toString()).isEqualTo("Running");
    assertThat(read.getMetadata().getGeneration())
        .as("a status write does not count as a spec change")
        .isEqualTo(1L);
  }

  @Test
  void withoutTheStatusSubresourceStatusIsWrittenWithTheObject(KubernetesClient client) {
    WidgetCrd crd =
        install(
            client,
            WidgetCrd.inGroup("nostatus.widgetcrd.converge.dev").withoutStatusSubresource());

    GenericKubernetesResource created =
        client
            .genericKubernetesResources(crd.apiVersion(), crd.kind())
            .resource(widget(crd, "inline", Map.of(), Map.of("phase", "Written")))
            .create();

    assertThat(created.get("status", "phase").toString()).isEqualTo("Written");
  }

  @Test
  void aTypedSpecIsPrunedAndDefaultedAndScaleWritesItsReplicas(KubernetesClient client) {
    WidgetCrd crd =
        install(
            client,
            WidgetCrd.inGroup("scaled.widgetcrd.converge.dev")
                .spec(
                    new JSONSchemaPropsBuilder()
                        .withType("object")
                        .addToProperties(
                            "replicas",
                            new JSONSchemaPropsBuilder()
                                .withType("integer")
                                .withDefault(
                                    tools.jackson.databind.node.JsonNodeFactory.instance.numberNode(
                                        1))
                                .build())
                        .build())
                .scale(".spec.replicas", ".status.replicas"));
    var widgets = client.genericKubernetesResources(crd.apiVersion(), crd.kind());

    GenericKubernetesResource created =
        widgets.resource(widget(crd, "scaled", Map.of("unknown", "pruned"), null)).create();
    assertThat(created.get("spec", "replicas").toString()).isEqualTo("1");
    assertThat(created.getAdditionalProperties().get("spec")).isEqualTo(Map.of("replicas", 1));

    String path =
        "/apis/"
            + crd.apiVersion()
            + "/namespaces/"
            + created.getMetadata().getNamespace()
            + "/"
            + crd.plural()
            + "/scaled/scale";
    Scale scale = client.getKubernetesSerialization().unmarshal(client.raw(path), Scale.class);
    assertThat(scale.getSpec().getReplicas()).isEqualTo(1);
    Scale three = new ScaleBuilder(scale).editSpec().withReplicas(3).endSpec().build();
    client.raw(path, "PUT", three);

    assertThat(widgets.withName("scaled").get().get("spec", "replicas").toString()).isEqualTo("3");
  }

  @Test
  void aClassGivesTheDefinitionItsGroupVersionKindAndPlural() {
    WidgetCrd crd = WidgetCrd.of(dev.converge.crd.sample.Widget.class);

    assertThat(crd.name()).isEqualTo("widgets.widgets.crd.converge.dev");
    assertThat(crd.apiVersion()).isEqualTo("widgets.crd.converge.dev/v1");
    assertThat(crd.build().getSpec().getNames().getKind()).isEqualTo("Widget");
  }
}
