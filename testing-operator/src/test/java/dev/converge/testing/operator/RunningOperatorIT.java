package dev.converge.testing.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.finalizer.CleanupResult;
import dev.converge.finalizer.FinalizerHook;
import dev.converge.finalizer.FinalizingReconciler;
import dev.converge.operator.Operator;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator that puts a finalizer on labelled ConfigMaps, run with {@link RunningOperator}: the
 * leftovers a test leaves are finalized by the operator itself before it stops, and an operator
 * that cannot finalize is reported while the namespace is still freed.
 */
@ExtendWith(LocalClusterExtension.class)
class RunningOperatorIT {

  static final String FINALIZER = "example.com/guard";
  static final Map<String, String> GUARDED = Map.of("example.com/guarded", "true");

  @Test
  void closeLetsTheOperatorFinalizeWhatTheTestLeftBehind(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    List<String> cleaned = new CopyOnWriteArrayList<>();
    RunningOperator operator =
        start(
            cluster,
            ns,
            (cm, context) -> {
              cleaned.add(cm.getMetadata().getName() + " by " + context.controllerName());
              return CleanupResult.done();
            });
    try {
      admin.configMaps().inNamespace(ns.name()).resource(guarded("left-behind")).create();
      await("finalizer added")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(
                          admin
                              .configMaps()
                              .inNamespace(ns.name())
                              .withName("left-behind")
                              .get()
                              .getMetadata()
                              .getFinalizers())
                      .containsExactly(FINALIZER));

      ConfigMap stored = admin.configMaps().inNamespace(ns.name()).withName("left-behind").get();
      assertThat(stored.getMetadata().getManagedFields())
          .as("writers of the finalizer")
          .extracting(ManagedFieldsEntry::getManager)
          .contains("guard-operator");
      assertThat(operator.writes())
          .anyMatch(
              w ->
                  w.startsWith("PATCH ")
                      && w.endsWith("/namespaces/" + ns.name() + "/configmaps/left-behind"));
      assertThat(operator.reconciles("guard")).isPositive();
    } finally {
      operator.close();
    }

    assertThat(cleaned).containsExactly("left-behind by guard");
    assertThat(admin.configMaps().inNamespace(ns.name()).withName("left-behind").get()).isNull();
    assertThat(operator.operator().isReconciling()).isFalse();
  }

  @Test
  void anOperatorThatCannotFinalizeIsReportedAndTheObjectIsFreed(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    RunningOperator operator =
        RunningOperator.on(cluster)
            .userAgent("guard-operator/test")
            .cleanUp(ConfigMap.class)
            .namespace(ns.name())
            .cleanUpTimeout(Duration.ofSeconds(3))
            .start(
                (client, meters) ->
                    operator(
                        client,
                        meters,
                        ns,
                        (cm, context) -> {
                          throw new IllegalStateException("the external system is down");
                        }));
    admin.configMaps().inNamespace(ns.name()).resource(guarded("stuck")).create();
    await("finalizer added")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        admin
                            .configMaps()
                            .inNamespace(ns.name())
                            .withName("stuck")
                            .get()
                            .getMetadata()
                            .getFinalizers())
                    .containsExactly(FINALIZER));

    assertThatThrownBy(operator::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ConfigMap " + ns.name() + "/stuck")
        .hasMessageContaining(FINALIZER)
        .hasMessageContaining("removed by force");
    await("the forced deletion completes")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(admin.configMaps().inNamespace(ns.name()).withName("stuck").get())
                    .isNull());
  }

  @Test
  void cachesThatCannotSyncFailTheStartNamingTheFix(TestNamespace ns, LocalCluster cluster) {
    assertThatThrownBy(
            () ->
                RunningOperator.on(cluster)
                    .impersonating("nobody", "system:authenticated")
                    .cachesSyncTimeout(Duration.ofSeconds(3))
                    .start(
                        (client, meters) ->
                            operator(client, meters, ns, (cm, context) -> CleanupResult.done())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not sync")
        .hasMessageContaining("RBAC");
  }

  private static RunningOperator start(
      LocalCluster cluster, TestNamespace ns, FinalizerHook<ConfigMap> hook) {
    return RunningOperator.on(cluster)
        .userAgent("guard-operator/test")
        .cleanUp(ConfigMap.class)
        .namespace(ns.name())
        .start((client, meters) -> operator(client, meters, ns, hook));
  }

  private static Operator operator(
      KubernetesClient client,
      io.micrometer.core.instrument.MeterRegistry meters,
      TestNamespace ns,
      FinalizerHook<ConfigMap> hook) {
    return Operator.builder(client)
        .name("guard-operator")
        .namespace(ns.name())
        .meterRegistry(meters)
        .controller(
            ControllerBuilder.forPrimary(ConfigMap.class)
                .named("guard")
                .withPredicate(EventPredicate.hasLabels(GUARDED))
                .build(FinalizingReconciler.wrap(FINALIZER, hook, (cm, context) -> Result.done())))
        .build();
  }

  private static ConfigMap guarded(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(GUARDED)
        .endMetadata()
        .addToData("k", "v")
        .build();
  }
}
