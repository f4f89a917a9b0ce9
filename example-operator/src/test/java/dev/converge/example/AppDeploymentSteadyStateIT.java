package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.operator.OperatorBuilder;
import dev.converge.strategy.StrategySelection;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * After convergence an idle operator sends no write at all: not to the Deployment, not to the
 * Service (whatever the strategy, despite the server's defaults), not to the status, no Events. The
 * idle window is {@value #IDLE_SECONDS} s (the issue asks for a minute; a shorter window keeps the
 * suite fast, and nothing in the operator runs on a timer longer than that once converged).
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentSteadyStateIT {

  static final int IDLE_SECONDS = 20;

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "apps/v1/Deployment=ssa, v1/Service=update",
        "default=merge-patch",
        "default=update"
      })
  void anIdleOperatorWritesNothing(
      String strategies, KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    String namespace = ns.name();
    Consumer<OperatorBuilder> settings = b -> b.strategies(StrategySelection.parse(strategies));
    try (RunningOperator operator = AppOperatorRun.start(cluster, namespace, settings)) {
      state.putConfigMap("cfg", Map.of("K", "V"));
      state.create("idle", "nginx:1.27", 2, "cfg");
      state.create("idle-too", "busybox:1.36", 1, null);
      state.awaitRunning("idle", 2);
      state.awaitRunning("idle-too", 1);
      // Let the last status writes of the rollout land: converged means no write for 3 s.
      int[] seen = {operator.writes().size()};
      await("writes settle")
          .atMost(ClusterState.CONVERGE)
          .pollInterval(Duration.ofSeconds(3))
          .until(
              () -> {
                int now = operator.writes().size();
                boolean same = now == seen[0];
                seen[0] = now;
                return same;
              });
      List<String> before = operator.writes();
      long reconcilesBefore = AppOperatorRun.reconciles(operator);

      await()
          .during(Duration.ofSeconds(IDLE_SECONDS))
          .atMost(Duration.ofSeconds(IDLE_SECONDS + 5))
          .untilAsserted(
              () -> assertThat(operator.writes()).as("writes while idle").isEqualTo(before));

      assertThat(operator.writes())
          .as("writes during %d idle seconds", IDLE_SECONDS)
          .isEqualTo(before);
      long idleReconciles = AppOperatorRun.reconciles(operator) - reconcilesBefore;

      // Idle is easy when nothing triggers a reconcile. Now make reconciles happen without any
      // change to what the operator manages: someone annotates the Deployment and the Service
      // (both owned, so both events reconcile). Every strategy must see that live already holds
      // the desired state, server defaults included, and send nothing.
      long reconcilesBeforePoke = AppOperatorRun.reconciles(operator);
      // As `kubectl annotate` does: a merge patch adding one annotation, under its own manager.
      PatchContext annotate =
          new PatchContext.Builder()
              .withPatchType(PatchType.JSON_MERGE)
              .withFieldManager("kubectl-annotate")
              .build();
      String poke = "{\"metadata\":{\"annotations\":{\"example.com/poked\":\"yes\"}}}";
      // One owned object at a time: events for the same AppDeployment that arrive while its key
      // is still queued are merged into one reconcile, so each poke waits for its own.
      for (String name : List.of("idle", "idle-too")) {
        long beforeDeployment = AppOperatorRun.reconciles(operator);
        admin.apps().deployments().inNamespace(ns.name()).withName(name).patch(annotate, poke);
        await("a reconcile caused by annotating Deployment " + name)
            .atMost(ClusterState.CONVERGE)
            .until(() -> AppOperatorRun.reconciles(operator) > beforeDeployment);
        long beforeService = AppOperatorRun.reconciles(operator);
        admin.services().inNamespace(ns.name()).withName(name).patch(annotate, poke);
        await("a reconcile caused by annotating Service " + name)
            .atMost(ClusterState.CONVERGE)
            .until(() -> AppOperatorRun.reconciles(operator) > beforeService);
      }
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> assertThat(operator.writes()).as("writes after the pokes").isEqualTo(before));
      assertThat(operator.writes())
          .as("writes after reconciles that found nothing to change")
          .isEqualTo(before);
      System.out.printf(
          "steady state [%s]: %d writes to converge; 0 writes in %d idle seconds"
              + " (%d reconciles); 0 writes in %d reconciles after 4 unrelated edits%n",
          strategies,
          before.size(),
          IDLE_SECONDS,
          idleReconciles,
          AppOperatorRun.reconciles(operator) - reconcilesBeforePoke);
    }
  }
}
