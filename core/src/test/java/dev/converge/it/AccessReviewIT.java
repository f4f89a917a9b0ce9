package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator reviews its own access on the API server: an account whose role lacks what the
 * operator needs (here: Events) is unready with the verb and the resource named, though every
 * informer syncs; granting it makes the operator ready again without a restart.
 */
@ExtendWith(LocalClusterExtension.class)
class AccessReviewIT {

  @Test
  void aMissingGrantIsNamedAndAGrantGivenLaterIsSeen(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    String user = "access-review-it";
    PolicyRule read =
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("configmaps")
            .withVerbs("get", "list", "watch")
            .build();
    PolicyRule events =
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("events")
            .withVerbs("create", "patch")
            .build();
    putRole(admin, ns, List.of(read));
    admin
        .rbac()
        .roleBindings()
        .inNamespace(ns.name())
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(user)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", user)
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(user)
                .endSubject()
                .build())
        .create();

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubernetesClient asUser = cluster.clientAs(user);
        Operator operator =
            Operator.builder(asUser)
                .name("access-it")
                .namespace(ns.name())
                .meterRegistry(registry)
                .accessReviewInterval(Duration.ofSeconds(1))
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .build((cm, context) -> Result.done()))
                .build()) {
      operator.start();
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.ready()).isFalse();
                assertThat(health.live()).isTrue();
                assertThat(health.problems())
                    .anyMatch(
                        p -> p.startsWith("RBAC: may not create events in namespace " + ns.name()))
                    .anyMatch(
                        p -> p.startsWith("RBAC: may not patch events in namespace " + ns.name()))
                    .noneMatch(p -> p.contains("configmaps"));
              });
      assertThat(
              registry
                  .find(MicrometerControllerMetrics.ACCESS_DENIED)
                  .tag("resource", "events")
                  .tag("verb", "create")
                  .tag("namespace", ns.name())
                  .gauge()
                  .value())
          .isEqualTo(1.0);

      putRole(admin, ns, List.of(read, events));

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.problems()).isEmpty();
                assertThat(health.ready()).isTrue();
              });
      assertThat(
              registry
                  .find(MicrometerControllerMetrics.ACCESS_DENIED)
                  .tag("resource", "events")
                  .tag("verb", "create")
                  .gauge()
                  .value())
          .isEqualTo(0.0);
    }
  }

  private static void putRole(KubernetesClient admin, TestNamespace ns, List<PolicyRule> rules) {
    admin
        .rbac()
        .roles()
        .inNamespace(ns.name())
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("access-review-it")
                .withNamespace(ns.name())
                .endMetadata()
                .withRules(rules)
                .build())
        .fieldManager("access-review-it")
        .forceConflicts()
        .serverSideApply();
  }
}
