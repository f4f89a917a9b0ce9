package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.operator.internal.SharedInformers;
import dev.converge.reconcile.Result;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's watch of its primaries goes silent and a primary is deleted meanwhile. The garbage
 * collector deletes the primary's ConfigMap; the ConfigMap's event wakes the primary, which the
 * cache still holds. Before, every such reconcile created the ConfigMap again for an owner that no
 * longer exists and the collector deleted it again, without end. Now the status write's 404 stops
 * the reconciles of that primary, and the informer lists again, so the cache catches up. Counted by
 * a watch of the test's own on the real API server.
 */
@ExtendWith(LocalClusterExtension.class)
class StaleCacheOperatorIT {

  @Group("stale.it.converge.dev")
  @Version("v1")
  public static class StaleWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  private Operator operator;
  private Watch counting;

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, StaleWidget.class);
  }

  @AfterEach
  void stop() {
    if (counting != null) {
      counting.close();
    }
    if (operator != null) {
      operator.stop();
    }
  }

  private static StaleWidget widget(String namespace, String name) {
    StaleWidget w = new StaleWidget();
    w.getMetadata().setName(name);
    w.getMetadata().setNamespace(namespace);
    w.setSpec(new WidgetSpec());
    w.getSpec().setData("d");
    return w;
  }

  @Test
  void aPrimaryDeletedWhileItsWatchWasSilentIsNotRecreatedForWithoutEnd(
      KubernetesClient client, TestNamespace ns) throws Exception {
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    operator =
        Operator.builder(client)
            .name("stale-it")
            .namespace(ns.name())
            .strategies(
                new StrategySelector(
                    Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
            .controller(
                ControllerBuilder.forPrimary(StaleWidget.class)
                    .owns(ConfigMap.class)
                    .build(
                        (widget, context) -> {
                          context.apply(
                              new ConfigMapBuilder()
                                  .withNewMetadata()
                                  .withName(widget.getMetadata().getName() + "-out")
                                  .withNamespace(widget.getMetadata().getNamespace())
                                  .endMetadata()
                                  .addToData("value", widget.getSpec().getData())
                                  .build());
                          context.updateStatus(
                              widget,
                              w -> {
                                if (w.getStatus() == null) {
                                  w.setStatus(new WidgetStatus());
                                }
                                w.getStatus().setSeenData(w.getSpec().getData());
                              });
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
    client.resource(widget(ns.name(), "w1")).create();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              StaleWidget w =
                  client.resources(StaleWidget.class).inNamespace(ns.name()).withName("w1").get();
              return w.getStatus() != null && "d".equals(w.getStatus().getSeenData());
            });

    SharedInformers informers = (SharedInformers) operator.caches();
    SilentWatch.silence(informers.informersOf(StaleWidget.class).get(0));
    AtomicInteger recreated = new AtomicInteger();
    // from now on: a watch without a resourceVersion would first report the existing ConfigMap
    String now =
        client.configMaps().inNamespace(ns.name()).list().getMetadata().getResourceVersion();
    counting =
        client
            .configMaps()
            .inNamespace(ns.name())
            .withName("w1-out")
            .watch(
                new ListOptionsBuilder().withResourceVersion(now).build(),
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {
                    if (action == Action.ADDED) {
                      recreated.incrementAndGet();
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    client.resources(StaleWidget.class).inNamespace(ns.name()).withName("w1").delete();
    // what the garbage collector does next (it may take half a minute to learn a new kind)
    client.configMaps().inNamespace(ns.name()).withName("w1-out").delete();

    // the relist after the grace period drops the deleted primary from the cache
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> operator.caches().of(StaleWidget.class).get(ns.name(), "w1").isEmpty());
    assertThat(informers.staleRelists(StaleWidget.class)).isEqualTo(1);
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> client.configMaps().inNamespace(ns.name()).withName("w1-out").get() == null);
    // the woken owner was checked on the API server before it could create its child again
    assertThat(recreated.get()).isZero();
    assertThat(operator.health().live()).isTrue();

    // and the primaries' new watch delivers
    client.resource(widget(ns.name(), "w2")).create();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.configMaps().inNamespace(ns.name()).withName("w2-out").get() != null);
  }
}
