package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator that cannot see its kinds must say so: a refused list and a kind the API server does
 * not serve are named in {@code health()} with the fix, counted in metrics, and once the cache-sync
 * timeout has passed the operator is no longer live (controller-runtime's manager fails the same
 * way), so the kubelet restarts it instead of leaving it idle.
 */
@ExtendWith(LocalClusterExtension.class)
class BlindOperatorIT {

  /** A kind whose CRD is never installed. */
  @Group("missing.it.converge.dev")
  @Version("v1")
  public static class MissingWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @Test
  void aRefusedListIsNamedWithTheFixAndTheSyncTimeoutEndsLiveness(
      TestNamespace ns, LocalCluster cluster) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubernetesClient nobody = cluster.clientAs("operator-without-rbac");
        Operator operator =
            Operator.builder(nobody)
                .name("blind-it")
                .namespace(ns.name())
                .events(EventRecorder.discarding())
                .meterRegistry(registry)
                .cacheSyncTimeout(Duration.ofSeconds(3))
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .build((cm, context) -> Result.done()))
                .build()) {
      operator.start();

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.ready()).isFalse();
                assertThat(health.problems())
                    .anySatisfy(
                        p ->
                            assertThat(p)
                                .contains(
                                    "informer for ConfigMap in namespace "
                                        + ns.name()
                                        + " cannot list",
                                    "forbidden (403)",
                                    "Grant the operator's account get, list and watch on configmaps"));
              });
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.live()).isFalse();
                assertThat(health.problems())
                    .anySatisfy(
                        p ->
                            assertThat(p)
                                .contains(
                                    "informer caches did not sync within 3 s: ConfigMap in namespace "
                                        + ns.name(),
                                    "forbidden (403)"));
              });
      assertThat(
              registry
                  .find(MicrometerControllerMetrics.INFORMER_ERRORS)
                  .tag("kind", "ConfigMap")
                  .tag("reason", "forbidden")
                  .counter()
                  .count())
          .isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void aKindWithoutItsCrdIsNamedWithTheFix(KubernetesClient client, TestNamespace ns) {
    try (Operator operator =
        Operator.builder(client)
            .name("blind-it")
            .namespace(ns.name())
            .events(EventRecorder.discarding())
            .controller(
                ControllerBuilder.forPrimary(MissingWidget.class)
                    .build((w, context) -> Result.done()))
            .build()) {
      operator.start();

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.ready()).isFalse();
                assertThat(health.problems())
                    .anySatisfy(
                        p ->
                            assertThat(p)
                                .contains(
                                    "informer for MissingWidget in namespace "
                                        + ns.name()
                                        + " cannot list",
                                    "not found (404)",
                                    "missingwidgets.missing.it.converge.dev",
                                    "install its CustomResourceDefinition"));
              });
    }
  }
}
