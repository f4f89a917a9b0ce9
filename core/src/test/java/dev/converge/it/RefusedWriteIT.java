package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writes the API server refuses as invalid end the reconcile of that generation: a {@code
 * Reconciled=False} condition naming the field, one Warning Event, the refused metric, no retry
 * storm, other objects reconciled meanwhile, and a new spec reconciled again. The operator here
 * writes its children with the client directly and checks nothing itself: neither the immutable
 * selector of a Deployment nor a Service name that is no DNS-1035 label.
 */
@ExtendWith(LocalClusterExtension.class)
class RefusedWriteIT {

  /**
   * How long the test watches for retries that should not happen. The default backoff (5 ms
   * doubling) would retry about a dozen times in this window, and the first safety-net recheck
   * comes only after two minutes, so 25 s tells the two apart while keeping the test short.
   */
  private static final Duration QUIET_WINDOW = Duration.ofSeconds(25);

  @Group("refused.it.converge.dev")
  @Version("v1")
  public static class RefusedWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, RefusedWidget.class);
  }

  @Test
  void refusedWritesEndAsAConditionAndWaitForTheNextSpec(
      LocalCluster cluster, KubernetesClient client, TestNamespace ns) {
    RequestCounter counter = new RequestCounter();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubernetesClient operatorClient =
            cluster
                .clientBuilder()
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", counter))
                .build();
        Operator operator =
            Operator.builder(operatorClient)
                .name("refused-it")
                .namespace(ns.name())
                .meterRegistry(registry)
                .controller(
                    // The children are written with the client, not through a strategy, and
                    // not watched: what matters here is the primary.
                    ControllerBuilder.forPrimary(RefusedWidget.class)
                        .build(
                            (widget, context) -> {
                              context
                                  .client()
                                  .resource(child(widget))
                                  .fieldManager("refused-it")
                                  .forceConflicts()
                                  .serverSideApply();
                              Widgets.setReady(
                                  context, widget, ConditionStatus.TRUE, "Reconciled", "ok");
                              return Result.done();
                            }))
                .build()) {
      operator.start();
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(60))).isTrue();

      // A Deployment whose selector comes from the spec: fine at first.
      client.resource(widget("selector", "deployment", "blue")).create();
      await().atMost(Duration.ofSeconds(60)).until(() -> Widgets.isReady(get(client, "selector")));

      // The selector changes with the spec: the API server refuses it, it is immutable.
      edit(client, "selector", "green");
      // A Service named after the spec: "web.v2" is no DNS-1035 label, the server refuses it.
      client.resource(widget("dotted", "service", "web.v2")).create();

      Condition immutable = awaitRefused(client, "selector");
      assertThat(immutable.getReason()).isEqualTo("Invalid");
      assertThat(immutable.getMessage()).contains("spec.selector").contains("immutable");
      assertThat(immutable.getObservedGeneration()).isEqualTo(2L);
      Condition invalidName = awaitRefused(client, "dotted");
      assertThat(invalidName.getReason()).isEqualTo("Invalid");
      assertThat(invalidName.getMessage()).contains("metadata.name").contains("web.v2");
      assertThat(invalidName.getObservedGeneration()).isEqualTo(1L);

      // Quiet from now on: no retries of the refused writes, while a good object is reconciled.
      counter.reset();
      client.resource(widget("bystander", "configmap", "hello")).create();
      await()
          .during(QUIET_WINDOW)
          .atMost(QUIET_WINDOW.plusSeconds(30))
          .until(
              () ->
                  writesTo(counter, "/deployments/selector") <= 3
                      && writesTo(counter, "/services/web.v2") <= 3);
      assertThat(Widgets.isReady(get(client, "bystander"))).isTrue();
      assertThat(client.configMaps().withName("bystander").get().getData())
          .containsEntry("value", "hello");

      // One Warning Event each, whatever number of times it was seen.
      for (String name : List.of("selector", "dotted")) {
        List<Event> warnings = warnings(client, ns, name);
        assertThat(warnings).as("Warning Events of %s", name).hasSize(1);
        assertThat(warnings.get(0).getReason()).isEqualTo("Invalid");
        assertThat(warnings.get(0).getCount()).isBetween(1, 3);
      }
      Counter refused =
          registry
              .find("converge.reconcile.refused")
              .tag("kind", "Deployment")
              .tag("reason", "invalid")
              .counter();
      assertThat(refused).isNotNull();
      assertThat(refused.count()).isBetween(1.0, 3.0);
      // The Deployment the server kept is the one of generation 1.
      assertThat(
              client
                  .apps()
                  .deployments()
                  .withName("selector")
                  .get()
                  .getSpec()
                  .getSelector()
                  .getMatchLabels())
          .containsEntry("app", "blue");

      // A new spec is reconciled at once, and the condition goes.
      edit(client, "selector", "blue");
      edit(client, "dotted", "web-v2");
      for (String name : List.of("selector", "dotted")) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> {
                  RefusedWidget w = get(client, name);
                  return reconciledCondition(w).isEmpty() && Widgets.isReady(w);
                });
      }
      assertThat(client.services().withName("web-v2").get()).isNotNull();
      assertThat(warnings(client, ns, "selector")).hasSize(1);
    }
  }

  private static Condition awaitRefused(KubernetesClient client, String name) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                reconciledCondition(get(client, name))
                    .filter(c -> "False".equals(c.getStatus()))
                    .isPresent());
    return reconciledCondition(get(client, name)).orElseThrow();
  }

  private static long writesTo(RequestCounter counter, String path) {
    return counter.writes().stream().filter(w -> w.contains(path)).count();
  }

  /** The child of each mode, built from the spec and nothing else. */
  private static io.fabric8.kubernetes.api.model.HasMetadata child(RefusedWidget widget) {
    String name = widget.getMetadata().getName();
    String ns = widget.getMetadata().getNamespace();
    String data = widget.getSpec().getData();
    io.fabric8.kubernetes.api.model.HasMetadata child =
        switch (widget.getSpec().getMode()) {
          case "deployment" ->
              new DeploymentBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .withNamespace(ns)
                  .endMetadata()
                  .withNewSpec()
                  .withReplicas(0)
                  .withNewSelector()
                  .addToMatchLabels("app", data)
                  .endSelector()
                  .withNewTemplate()
                  .withNewMetadata()
                  .addToLabels("app", data)
                  .endMetadata()
                  .withNewSpec()
                  .addNewContainer()
                  .withName("app")
                  .withImage("registry.example.com/app:1")
                  .endContainer()
                  .endSpec()
                  .endTemplate()
                  .endSpec()
                  .build();
          case "service" ->
              new ServiceBuilder()
                  .withNewMetadata()
                  .withName(data)
                  .withNamespace(ns)
                  .endMetadata()
                  .withNewSpec()
                  .addToSelector("app", name)
                  .addNewPort()
                  .withPort(80)
                  .endPort()
                  .endSpec()
                  .build();
          default ->
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .withNamespace(ns)
                  .endMetadata()
                  .addToData("value", data)
                  .build();
        };
    OwnerReferences.setController(widget, child);
    return child;
  }

  private static RefusedWidget widget(String name, String mode, String data) {
    RefusedWidget w = new RefusedWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setMode(mode);
    w.getSpec().setData(data);
    return w;
  }

  private static RefusedWidget get(KubernetesClient client, String name) {
    return client.resources(RefusedWidget.class).withName(name).get();
  }

  private static void edit(KubernetesClient client, String name, String data) {
    client
        .resources(RefusedWidget.class)
        .withName(name)
        .edit(
            w -> {
              w.getSpec().setData(data);
              return w;
            });
  }

  static Optional<Condition> reconciledCondition(CustomResource<?, WidgetStatus> widget) {
    if (widget == null
        || widget.getStatus() == null
        || widget.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return widget.getStatus().getConditions().stream()
        .filter(c -> "Reconciled".equals(c.getType()))
        .findFirst();
  }

  static List<Event> warnings(KubernetesClient client, TestNamespace ns, String name) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "Warning".equals(e.getType()))
        .toList();
  }
}
