package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One bad object must not stall its whole kind: neither one a user's index function cannot handle
 * (a ConfigMap without the key the function expects) nor a custom resource the API server accepted
 * but its Java class cannot read. Every other object is cached, indexed and reconciled; the bad one
 * is named in health, metrics, an Event and the log.
 */
@ExtendWith(LocalClusterExtension.class)
class BadObjectIT {

  @Group("badobject.it.converge.dev")
  @Version("v1")
  public static class ShapeWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, ShapeWidget.class); // schemaless spec: the server stores any shape
  }

  private static GenericKubernetesResource shapeWidget(String name, Object mode) {
    GenericKubernetesResource w = new GenericKubernetesResource();
    w.setApiVersion(HasMetadata.getApiVersion(ShapeWidget.class));
    w.setKind(HasMetadata.getKind(ShapeWidget.class));
    w.setMetadata(new ObjectMetaBuilder().withName(name).build());
    w.setAdditionalProperty("spec", Map.of("mode", mode));
    return w;
  }

  @Test
  void aCustomResourceThatDoesNotFitItsClassIsLeftOutAndNamedWhileTheRestFlows(
      KubernetesClient client, TestNamespace ns) {
    var generic =
        client.genericKubernetesResources(
            ResourceDefinitionContext.fromResourceType(ShapeWidget.class));
    // spec.mode is a String in the class; the schemaless CRD lets an object through
    generic.resource(shapeWidget("misshapen", Map.of("nested", true))).create();
    for (int i = 0; i < 10; i++) {
      generic.resource(shapeWidget("fine-" + i, "done")).create();
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Set<String> reconciled = ConcurrentHashMap.newKeySet();
    try (Operator operator =
        Operator.builder(client)
            .name("bad-object-it")
            .namespace(ns.name())
            .meterRegistry(registry)
            .controller(
                ControllerBuilder.forPrimary(ShapeWidget.class)
                    .build(
                        (w, context) -> {
                          reconciled.add(w.getMetadata().getName());
                          return Result.done();
                        }))
            .build()) {
      operator.start();

      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.size() == 10);
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(5))).isTrue();
      OperatorHealth health = operator.health();
      assertThat(health.live()).isTrue();
      assertThat(health.ready()).isTrue();
      assertThat(health.problems())
          .anySatisfy(
              p ->
                  assertThat(p)
                      .contains(
                          "ShapeWidget "
                              + ns.name()
                              + "/misshapen: deserialisation into "
                              + ShapeWidget.class.getName()
                              + " failed",
                          "mode",
                          "the rest of ShapeWidget is unaffected"));
      assertThat(
              registry
                  .find(MicrometerControllerMetrics.OBJECTS_REJECTED)
                  .tag("kind", "ShapeWidget")
                  .tag("place", "deserialisation")
                  .counter()
                  .count())
          .isEqualTo(1.0);
      assertThat(operator.caches().of(ShapeWidget.class).get(ns.name(), "misshapen")).isEmpty();

      generic.resource(shapeWidget("later", "done")).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.contains("later"));

      // Repaired by the user: reconciled like the others, and no longer reported.
      generic
          .withName("misshapen")
          .edit(
              w -> {
                w.setAdditionalProperty("spec", Map.of("mode", "done"));
                return w;
              });
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.contains("misshapen"));
      assertThat(operator.health().problems()).noneMatch(p -> p.contains("/misshapen:"));
    }
  }

  private static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels("indexed", "yes")
        .endMetadata()
        .withData(data)
        .build();
  }

  @Test
  void anObjectTheIndexFunctionFailsOnIsLeftOutAndNamedWhileTheRestOfTheKindFlows(
      KubernetesClient client, TestNamespace ns) {
    client.resource(configMap("bad", Map.of("other", "x"))).create(); // no "ref": the index throws
    for (int i = 0; i < 20; i++) {
      client.resource(configMap("good-" + i, Map.of("ref", "shared"))).create();
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Set<String> reconciled = ConcurrentHashMap.newKeySet();
    try (Operator operator =
        Operator.builder(client)
            .name("bad-object-it")
            .namespace(ns.name())
            .meterRegistry(registry)
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class)
                    // throws for a labelled ConfigMap without the key "ref"
                    .index(
                        ConfigMap.class,
                        "by-ref",
                        cm ->
                            cm.getMetadata().getLabels().containsKey("indexed")
                                ? List.of(cm.getData().get("ref").trim())
                                : List.of())
                    .build(
                        (cm, context) -> {
                          reconciled.add(cm.getMetadata().getName());
                          return Result.done();
                        }))
            .build()) {
      operator.start();

      // the 20 good ones, the bad one (it is cached, only left out of the index) and the
      // namespace's kube-root-ca.crt
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.size() == 22);
      assertThat(operator.caches().of(ConfigMap.class).byIndex("by-ref", "shared")).hasSize(20);

      OperatorHealth health = operator.health();
      assertThat(health.live()).isTrue();
      assertThat(health.ready()).as("one bad object does not make the operator unready").isTrue();
      assertThat(health.problems())
          .anySatisfy(
              p ->
                  assertThat(p)
                      .contains(
                          "ConfigMap "
                              + ns.name()
                              + "/bad: index 'by-ref' failed with java.lang.NullPointerException",
                          "the rest of ConfigMap is unaffected"));
      Counter rejected =
          registry
              .find(MicrometerControllerMetrics.OBJECTS_REJECTED)
              .tag("kind", "ConfigMap")
              .tag("place", "index")
              .counter();
      assertThat(rejected).isNotNull();
      assertThat(rejected.count()).isEqualTo(1.0);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  client.v1().events().inNamespace(ns.name()).list().getItems().stream()
                      .anyMatch(
                          e ->
                              "bad".equals(e.getInvolvedObject().getName())
                                  && "ObjectRejected".equals(e.getReason())
                                  && "Warning".equals(e.getType())
                                  && e.getMessage().contains("index 'by-ref' failed")));

      // The informer is not stuck on it: later objects arrive as usual.
      client.resource(configMap("later", Map.of("ref", "shared"))).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.contains("later"));

      // Fixed by the user: the object is indexed and the report goes away.
      client.resource(configMap("bad", Map.of("ref", "shared"))).update();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> operator.caches().of(ConfigMap.class).byIndex("by-ref", "shared").size() == 22);
      assertThat(operator.health().problems()).noneMatch(p -> p.contains("/bad:"));
    }
  }
}
