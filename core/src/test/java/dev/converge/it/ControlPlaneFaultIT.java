package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.operator.Operator;
import dev.converge.owner.OwnerReferences;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.ClusterFaults;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TcpProxy;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runtime keeps converging through real faults of the control plane: kube-apiserver killed and
 * started again, etcd killed and started again, and a watch that must resume from a history etcd
 * has compacted away (410 Gone). The operator under test copies each source ConfigMap's data into a
 * child ConfigMap it controls; after each fault every child must match its source, none missing,
 * none left over, and health must be clean again.
 */
@ExtendWith(LocalClusterExtension.class)
class ControlPlaneFaultIT {

  private static final String SOURCE = "fault-it/source";
  private static final int OBJECTS = 20;

  private static ConfigMap source(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(SOURCE, "true")
        .endMetadata()
        .addToData("value", value)
        .build();
  }

  private static Operator copier(KubernetesClient client, TestNamespace ns) {
    return Operator.builder(client)
        .name("fault-it")
        .namespace(ns.name())
        .events(EventRecorder.discarding())
        // it owns ConfigMaps, so it needs a strategy even though it writes by hand
        .strategies(
            new StrategySelector(
                Map.of("configmap-test", new ConfigMapTestStrategy()),
                StrategySelection.all("configmap-test")))
        .controller(
            ControllerBuilder.forPrimary(ConfigMap.class)
                .withPredicate(EventPredicate.hasLabels(Map.of(SOURCE, "true")))
                .owns(ConfigMap.class)
                .build(
                    (source, context) -> {
                      ConfigMap child =
                          new ConfigMapBuilder()
                              .withNewMetadata()
                              .withName(source.getMetadata().getName() + "-copy")
                              .withNamespace(source.getMetadata().getNamespace())
                              .endMetadata()
                              .withData(source.getData())
                              .build();
                      OwnerReferences.setController(source, child);
                      context
                          .client()
                          .resource(child)
                          .fieldManager("fault-it")
                          .forceConflicts()
                          .serverSideApply();
                      return Result.done();
                    }))
        .build();
  }

  /** Every source has exactly one child holding its data, and no child lacks a source. */
  private static boolean converged(KubernetesClient client, TestNamespace ns) {
    List<ConfigMap> all = client.configMaps().inNamespace(ns.name()).list().getItems();
    Map<String, ConfigMap> byName = new java.util.HashMap<>();
    all.forEach(cm -> byName.put(cm.getMetadata().getName(), cm));
    long sources =
        all.stream()
            .filter(cm -> cm.getMetadata().getLabels().containsKey(SOURCE))
            .filter(
                cm -> {
                  ConfigMap copy = byName.get(cm.getMetadata().getName() + "-copy");
                  return copy != null && Objects.equals(copy.getData(), cm.getData());
                })
            .count();
    long copies = all.stream().filter(cm -> cm.getMetadata().getName().endsWith("-copy")).count();
    long allSources =
        all.stream().filter(cm -> cm.getMetadata().getLabels().containsKey(SOURCE)).count();
    return sources == allSources && copies == allSources;
  }

  private void churnThroughFault(
      KubernetesClient admin,
      TestNamespace ns,
      LocalCluster cluster,
      String fault,
      Consumer<ClusterFaults> inject) {
    assumeTrue(cluster.faults().isPresent(), "needs a local control plane to inject faults");
    ClusterFaults faults = cluster.faults().orElseThrow();
    try (TcpProxy proxy = faults.proxyToApiServer();
        KubernetesClient operatorClient =
            new KubernetesClientBuilder().withConfig(cluster.configVia(proxy)).build();
        Operator operator = copier(operatorClient, ns)) {
      for (int i = 0; i < OBJECTS; i++) {
        admin.resource(source("s-" + i, "v1")).create();
      }
      operator.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> converged(admin, ns));

      // The operator is cut off while the world changes, then the fault strikes.
      proxy.cut();
      for (int i = 0; i < OBJECTS / 2; i++) {
        admin.resource(source("s-" + i, "v2")).update();
      }
      admin.configMaps().withName("s-" + (OBJECTS - 1)).delete();
      long began = System.nanoTime();
      inject.accept(faults);
      for (int i = OBJECTS; i < OBJECTS + 5; i++) {
        createRetrying(admin, source("s-" + i, "v1"));
      }
      proxy.heal();

      await().atMost(Duration.ofMinutes(2)).until(() -> converged(admin, ns));
      await().atMost(Duration.ofSeconds(60)).until(() -> operator.health().ready());
      System.out.printf(
          "fault %s: converged %d ms after the fault began%n",
          fault, (System.nanoTime() - began) / 1_000_000);
      assertThat(operator.health().live()).isTrue();
      assertThat(operator.health().problems()).isEmpty();
    }
  }

  /** Right after a restart the admin's own client may still see a refused connection. */
  private static void createRetrying(KubernetesClient admin, ConfigMap cm) {
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> admin.resource(cm).createOr(existing -> existing.update()) != null);
  }

  @Test
  void objectsConvergeAfterKubeApiserverIsKilledAndRestarted(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    churnThroughFault(
        admin, ns, cluster, "kube-apiserver restart", ClusterFaults::restartApiServer);
  }

  @Test
  void objectsConvergeAfterEtcdIsKilledAndRestarted(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    churnThroughFault(admin, ns, cluster, "etcd restart", ClusterFaults::restartEtcd);
  }

  @Test
  void objectsConvergeWhenTheWatchMustResumeFromCompactedHistory(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    // Compacted, and the API server's watch cache starts afresh: resuming from the operator's
    // last resourceVersion is answered with 410 Gone and the informer must list again.
    churnThroughFault(
        admin,
        ns,
        cluster,
        "etcd compaction (410 Gone)",
        faults -> {
          faults.compactEtcd();
          faults.restartApiServer();
        });
  }
}
