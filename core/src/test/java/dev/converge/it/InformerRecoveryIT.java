package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Watch errors must not silently blind the operator. A real API server refuses the watch (RBAC
 * allows list but not watch); once the permission is granted the same informer recovers and events
 * flow, without restarting anything.
 */
@ExtendWith(LocalClusterExtension.class)
class InformerRecoveryIT {

  private static Role role(String namespace, String... verbs) {
    return new RoleBuilder()
        .withNewMetadata()
        .withName("configmap-reader")
        .withNamespace(namespace)
        .endMetadata()
        .addNewRule()
        .withApiGroups("")
        .withResources("configmaps")
        .withVerbs(verbs)
        .endRule()
        .build();
  }

  @Test
  void anInformerWhoseWatchIsRefusedKeepsRetryingAndRecovers(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    admin.resource(role(ns.name(), "get", "list")).create();
    admin
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("configmap-reader")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "configmap-reader")
                .addNewSubject()
                .withKind("User")
                .withName("limited-operator")
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .create();

    Set<String> reconciled = ConcurrentHashMap.newKeySet();
    try (KubernetesClient limited = cluster.clientAs("limited-operator");
        Operator operator =
            Operator.builder(limited)
                .name("recovery-it")
                .namespace(ns.name())
                .events(EventRecorder.discarding())
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .build(
                            (cm, context) -> {
                              reconciled.add(cm.getMetadata().getName());
                              return Result.done();
                            }))
                .build()) {
      operator.start();

      // The watch keeps failing with 403; the operator stays live (it is retrying, not dead)
      // but not ready, and says why.
      admin
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("while-blind")
                  .endMetadata()
                  .build())
          .create();
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> operator.health().live());
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                assertThat(operator.health().ready()).as("a blind operator is not ready").isFalse();
                assertThat(operator.health().problems())
                    .anySatisfy(
                        p ->
                            assertThat(p)
                                .contains(
                                    "informer for ConfigMap in namespace "
                                        + ns.name()
                                        + " cannot watch",
                                    "forbidden (403)",
                                    "get, list and watch on configmaps"));
              });

      admin.resource(role(ns.name(), "get", "list", "watch")).update();

      await().atMost(Duration.ofSeconds(60)).until(() -> reconciled.contains("while-blind"));
      admin
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("after-recovery")
                  .endMetadata()
                  .build())
          .create();
      await().atMost(Duration.ofSeconds(30)).until(() -> reconciled.contains("after-recovery"));
      assertThat(operator.health().live()).isTrue();
      assertThat(operator.health().cachesSynced()).isTrue();
      await().atMost(Duration.ofSeconds(10)).until(() -> operator.health().ready());
    }
  }
}
