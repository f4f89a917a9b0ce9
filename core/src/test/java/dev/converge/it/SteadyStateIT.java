package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A reconcile that finds nothing to do sends nothing: no GET, no LIST, no write. Proven by counting
 * every request of the operator's client with an interceptor while the controller reconciles an
 * up-to-date widget again and again (reconcileEvery).
 */
@ExtendWith(LocalClusterExtension.class)
class SteadyStateIT {

  @Group("steady.it.converge.dev")
  @Version("v1")
  public static class SteadyWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, SteadyWidget.class);
  }

  @Test
  void steadyStateReconcilesReadOnlyFromCachesAndWriteNothing(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    admin
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("value", "1")
                .build())
        .create();
    SteadyWidget w = new SteadyWidget();
    w.getMetadata().setName("steady");
    w.setSpec(new WidgetSpec());
    w.getSpec().setConfigMapName("settings");
    w.getSpec().setData("x");
    admin.resource(w).create();

    RequestCounter counter = new RequestCounter();
    AtomicInteger reconciles = new AtomicInteger();
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    try (KubernetesClient operatorClient =
            cluster
                .clientBuilder()
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", counter))
                .build();
        Operator operator =
            Operator.builder(operatorClient)
                .name("steady-it")
                .namespace(ns.name())
                .cache(Namespace.class)
                .strategies(
                    new StrategySelector(
                        Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
                .controller(
                    ControllerBuilder.forPrimary(SteadyWidget.class)
                        .owns(ConfigMap.class)
                        .index(
                            SteadyWidget.class,
                            "by-configmap",
                            x ->
                                List.of(
                                    x.getMetadata().getNamespace()
                                        + "/"
                                        + x.getSpec().getConfigMapName()))
                        .watches(
                            ConfigMap.class,
                            (cm, caches) ->
                                caches
                                    .of(SteadyWidget.class)
                                    .byIndex(
                                        "by-configmap",
                                        cm.getMetadata().getNamespace()
                                            + "/"
                                            + cm.getMetadata().getName())
                                    .stream()
                                    .map(ObjectKey::of)
                                    .toList())
                        .reconcileEvery(Duration.ofMillis(200))
                        .build(
                            (widget, context) -> {
                              // A cluster-scoped kind, looked up from a namespaced primary's
                              // context.
                              if (context
                                  .get(Namespace.class, widget.getMetadata().getNamespace())
                                  .isEmpty()) {
                                throw new IllegalStateException(
                                    "the primary's Namespace is not in the cache");
                              }
                              ConfigMap source =
                                  context
                                      .get(ConfigMap.class, widget.getSpec().getConfigMapName())
                                      .orElseThrow();
                              ConfigMap desired =
                                  new ConfigMapBuilder()
                                      .withNewMetadata()
                                      .withName(widget.getMetadata().getName() + "-out")
                                      .withNamespace(widget.getMetadata().getNamespace())
                                      .endMetadata()
                                      .addToData(
                                          "value",
                                          widget.getSpec().getData()
                                              + "/"
                                              + source.getData().get("value"))
                                      .build();
                              OwnerReferences.setController(widget, desired);
                              context.apply(desired);
                              context.owned(
                                  ConfigMap.class); // an owner-index read, for good measure
                              Widgets.setReady(
                                  context, widget, ConditionStatus.TRUE, "Reconciled", "ok");
                              reconciles.incrementAndGet();
                              return Result.done();
                            }))
                .build()) {
      operator.start();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  Widgets.isReady(admin.resources(SteadyWidget.class).withName("steady").get())
                      && admin.configMaps().withName("steady-out").get() != null);
      // The counter sees this client's traffic: the informers' initial lists and the writes that
      // created the output and the status.
      assertThat(counter.reads())
          .anyMatch(r -> r.contains("/steadywidgets"))
          .anyMatch(r -> r.contains("/configmaps"));
      assertThat(counter.writes())
          .anyMatch(r -> r.startsWith("POST ") && r.contains("/configmaps"))
          .anyMatch(r -> r.startsWith("PATCH ") && r.endsWith("/status"));

      // Let the status write's own event and the owned object's events be handled, then count.
      int settled = reconciles.get();
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciles.get() >= settled + 3);
      counter.reset();
      int before = reconciles.get();

      await().atMost(Duration.ofSeconds(30)).until(() -> reconciles.get() >= before + 10);

      List<String> seen = counter.all();
      assertThat(counter.reads())
          .as(
              "GET or LIST during %d steady reconciles; all requests: %s",
              reconciles.get() - before, seen)
          .isEmpty();
      assertThat(counter.writes())
          .as("writes during steady reconciles; all requests: %s", seen)
          .isEmpty();
    }
  }
}
