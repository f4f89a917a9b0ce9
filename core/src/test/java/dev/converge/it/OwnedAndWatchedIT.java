package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.owner.OwnerReferences;
import dev.converge.predicate.EventPredicate;
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
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The three event sources of a controller on a real API server: the primary, an owned kind (a
 * ConfigMap the widget controls; deleting it brings it back) and a watched kind (a ConfigMap the
 * widget references, mapped back to widgets through a cache index), plus status conditions with
 * observedGeneration.
 */
@ExtendWith(LocalClusterExtension.class)
class OwnedAndWatchedIT {

  @Group("owned.it.converge.dev")
  @Version("v1")
  public static class OwnerWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  static final String BY_CONFIG_MAP = "widgets-by-configmap";

  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private Operator operator;

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, OwnerWidget.class);
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.stop();
    }
  }

  private void startOperator(KubernetesClient client, TestNamespace ns) {
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    operator =
        Operator.builder(client)
            .name("owned-it")
            .namespace(ns.name())
            .strategies(
                new StrategySelector(
                    Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
            .controller(
                ControllerBuilder.forPrimary(OwnerWidget.class)
                    .withPredicate(EventPredicate.generationChanged())
                    .owns(ConfigMap.class)
                    .index(
                        OwnerWidget.class,
                        BY_CONFIG_MAP,
                        w ->
                            w.getSpec().getConfigMapName() == null
                                ? List.of()
                                : List.of(
                                    w.getMetadata().getNamespace()
                                        + "/"
                                        + w.getSpec().getConfigMapName()))
                    .watches(
                        ConfigMap.class,
                        (cm, caches) ->
                            caches
                                .of(OwnerWidget.class)
                                .byIndex(
                                    BY_CONFIG_MAP,
                                    cm.getMetadata().getNamespace()
                                        + "/"
                                        + cm.getMetadata().getName())
                                .stream()
                                .map(ObjectKey::of)
                                .toList())
                    .build(
                        (widget, context) -> {
                          attempts
                              .computeIfAbsent(
                                  widget.getMetadata().getName(), k -> new AtomicInteger())
                              .incrementAndGet();
                          Optional<ConfigMap> source =
                              context.get(ConfigMap.class, widget.getSpec().getConfigMapName());
                          if (source.isEmpty()) {
                            Widgets.setReady(
                                context,
                                widget,
                                ConditionStatus.FALSE,
                                "ConfigMapMissing",
                                "ConfigMap "
                                    + widget.getSpec().getConfigMapName()
                                    + " does not exist");
                            return Result.requeueAfter(Duration.ofSeconds(30));
                          }
                          String value = source.get().getData().get("value");
                          ConfigMap desired =
                              new ConfigMapBuilder()
                                  .withNewMetadata()
                                  .withName(widget.getMetadata().getName() + "-out")
                                  .withNamespace(widget.getMetadata().getNamespace())
                                  .endMetadata()
                                  .addToData("value", widget.getSpec().getData() + "/" + value)
                                  .build();
                          OwnerReferences.setController(widget, desired);
                          context.apply(desired);
                          Widgets.setReady(
                              context,
                              widget,
                              ConditionStatus.TRUE,
                              "Reconciled",
                              "output written",
                              s -> s.setSeenData(value));
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
  }

  private static OwnerWidget widget(String name, String configMap, String data) {
    OwnerWidget w = new OwnerWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setConfigMapName(configMap);
    w.getSpec().setData(data);
    return w;
  }

  private static ConfigMap source(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("value", value)
        .build();
  }

  private static Optional<String> output(KubernetesClient client, String widget) {
    ConfigMap cm = client.configMaps().withName(widget + "-out").get();
    return cm == null ? Optional.empty() : Optional.ofNullable(cm.getData().get("value"));
  }

  private int attemptsOf(String name) {
    return attempts.getOrDefault(name, new AtomicInteger()).get();
  }

  @Test
  void ownedConfigMapIsCreatedWithControllerReferenceAndComesBackAfterDeletion(
      KubernetesClient client, TestNamespace ns) {
    client.resource(source("cfg-a", "1")).create();
    startOperator(client, ns);
    OwnerWidget created = client.resource(widget("alpha", "cfg-a", "x")).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> output(client, "alpha").equals(Optional.of("x/1")));
    ConfigMap out = client.configMaps().withName("alpha-out").get();
    OwnerReference controller = OwnerReferences.controllerOf(out).orElseThrow();
    assertThat(controller.getUid()).isEqualTo(created.getMetadata().getUid());
    assertThat(controller.getKind()).isEqualTo("OwnerWidget");

    client.configMaps().withName("alpha-out").delete();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              ConfigMap again = client.configMaps().withName("alpha-out").get();
              return again != null
                  && !again.getMetadata().getUid().equals(out.getMetadata().getUid());
            });
    assertThat(output(client, "alpha")).contains("x/1");

    // Drift on the owned object is reverted too: its update event wakes the owner.
    client
        .configMaps()
        .withName("alpha-out")
        .edit(
            cm -> {
              cm.getData().put("value", "tampered");
              return cm;
            });
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> output(client, "alpha").equals(Optional.of("x/1")));
  }

  @Test
  void aChangedConfigMapReconcilesOnlyTheWidgetsThatReferenceIt(
      KubernetesClient client, TestNamespace ns) {
    client.resource(source("cfg-a", "1")).create();
    client.resource(source("cfg-b", "1")).create();
    startOperator(client, ns);
    client.resource(widget("alpha", "cfg-a", "x")).create();
    client.resource(widget("beta", "cfg-b", "y")).create();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                output(client, "alpha").equals(Optional.of("x/1"))
                    && output(client, "beta").equals(Optional.of("y/1")));
    assertThat(operator.caches().of(OwnerWidget.class).byIndex(BY_CONFIG_MAP, ns.name() + "/cfg-a"))
        .extracting(w -> w.getMetadata().getName())
        .containsExactly("alpha");
    // Settle: the owned ConfigMaps' own events have been handled (count stable for a poll).
    AtomicInteger last = new AtomicInteger(-1);
    await()
        .pollInterval(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(10))
        .until(() -> last.getAndSet(attemptsOf("beta")) == attemptsOf("beta"));
    int betaBefore = attemptsOf("beta");

    client
        .configMaps()
        .withName("cfg-a")
        .edit(
            cm -> {
              cm.getData().put("value", "2");
              return cm;
            });

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> output(client, "alpha").equals(Optional.of("x/2")));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                "2"
                    .equals(
                        client
                            .resources(OwnerWidget.class)
                            .withName("alpha")
                            .get()
                            .getStatus()
                            .getSeenData()));
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> attemptsOf("beta") == betaBefore);
    assertThat(output(client, "beta")).contains("y/1");
  }

  @Test
  void readyConditionKeepsItsTransitionTimeUntilItsStatusFlips(
      KubernetesClient client, TestNamespace ns) {
    client.resource(source("cfg-a", "1")).create();
    startOperator(client, ns);
    client.resource(widget("gamma", "cfg-a", "x")).create();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> Widgets.isReady(client.resources(OwnerWidget.class).withName("gamma").get()));
    String firstTransition =
        Widgets.ready(client.resources(OwnerWidget.class).withName("gamma").get())
            .orElseThrow()
            .getLastTransitionTime();

    // A spec change: a new generation is observed, Ready stays True with the same transition time.
    client
        .resources(OwnerWidget.class)
        .withName("gamma")
        .edit(
            w -> {
              w.getSpec().setData("z");
              return w;
            });
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              OwnerWidget live = client.resources(OwnerWidget.class).withName("gamma").get();
              return Long.valueOf(2).equals(live.getStatus().getObservedGeneration())
                  && Widgets.ready(live)
                      .map(c -> Long.valueOf(2).equals(c.getObservedGeneration()))
                      .orElse(false);
            });
    assertThat(output(client, "gamma")).contains("z/1");
    OwnerWidget afterSpecChange = client.resources(OwnerWidget.class).withName("gamma").get();
    assertThat(Widgets.ready(afterSpecChange).orElseThrow().getStatus()).isEqualTo("True");
    assertThat(Widgets.ready(afterSpecChange).orElseThrow().getLastTransitionTime())
        .isEqualTo(firstTransition);

    // Reference a ConfigMap that does not exist: Ready flips to False with a new transition time.
    client
        .resources(OwnerWidget.class)
        .withName("gamma")
        .edit(
            w -> {
              w.getSpec().setConfigMapName("cfg-late");
              return w;
            });
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Widgets.ready(client.resources(OwnerWidget.class).withName("gamma").get())
                    .map(
                        c ->
                            "False".equals(c.getStatus())
                                && "ConfigMapMissing".equals(c.getReason()))
                    .orElse(false));

    // It appears: the watch maps it to the widget long before the 30 s requeue.
    client.resource(source("cfg-late", "7")).create();
    await()
        .atMost(Duration.ofSeconds(15))
        .until(
            () ->
                output(client, "gamma").equals(Optional.of("z/7"))
                    && Widgets.isReady(
                        client.resources(OwnerWidget.class).withName("gamma").get()));
  }
}
