package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A kind no strategy writes (here the primary) is cached without {@code managedFields} and
 * kubectl's last-applied annotation; a kind the controller owns is cached whole, because strategies
 * decide ownership from its {@code managedFields}. Observed against what the API server stores.
 */
@ExtendWith(LocalClusterExtension.class)
class TrimmedCacheIT {

  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  @Group("trim.it.converge.dev")
  @Version("v1")
  public static class TrimWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, TrimWidget.class);
  }

  @Test
  void primariesLoseManagedFieldsAndLastAppliedWhileOwnedObjectsKeepThem(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    TrimWidget w = new TrimWidget();
    w.getMetadata().setName("trimmed");
    w.getMetadata()
        .setAnnotations(Map.of(LAST_APPLIED, "{\"kind\":\"TrimWidget\"}", "team", "blue"));
    w.setSpec(new WidgetSpec());
    w.getSpec().setData("x");
    admin.resource(w).create();

    AtomicReference<TrimWidget> primarySeen = new AtomicReference<>();
    AtomicReference<ConfigMap> ownedSeen = new AtomicReference<>();
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    try (KubernetesClient operatorClient = cluster.clientBuilder().build();
        Operator operator =
            Operator.builder(operatorClient)
                .name("trim-it")
                .namespace(ns.name())
                .strategies(
                    new StrategySelector(
                        Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
                .controller(
                    ControllerBuilder.forPrimary(TrimWidget.class)
                        .owns(ConfigMap.class)
                        .build(
                            (widget, context) -> {
                              primarySeen.set(widget);
                              ConfigMap desired =
                                  new ConfigMapBuilder()
                                      .withNewMetadata()
                                      .withName(widget.getMetadata().getName() + "-out")
                                      .withNamespace(widget.getMetadata().getNamespace())
                                      .endMetadata()
                                      .addToData("value", widget.getSpec().getData())
                                      .build();
                              context.apply(desired);
                              context
                                  .get(ConfigMap.class, desired.getMetadata().getName())
                                  .ifPresent(ownedSeen::set);
                              return ownedSeen.get() == null
                                  ? Result.requeueAfter(Duration.ofMillis(100))
                                  : Result.done();
                            }))
                .build()) {
      operator.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> ownedSeen.get() != null);

      TrimWidget stored = admin.resources(TrimWidget.class).withName("trimmed").get();
      assertThat(stored.getMetadata().getManagedFields()).isNotEmpty();
      assertThat(stored.getMetadata().getAnnotations()).containsKey(LAST_APPLIED);
      assertThat(primarySeen.get().getMetadata().getManagedFields()).isNullOrEmpty();
      assertThat(primarySeen.get().getMetadata().getAnnotations())
          .doesNotContainKey(LAST_APPLIED)
          .containsEntry("team", "blue");
      assertThat(primarySeen.get().getSpec().getData()).isEqualTo("x");

      ConfigMap storedOwned = admin.configMaps().withName("trimmed-out").get();
      assertThat(ownedSeen.get().getMetadata().getManagedFields())
          .isNotEmpty()
          .hasSameSizeAs(storedOwned.getMetadata().getManagedFields());
    }
  }
}
