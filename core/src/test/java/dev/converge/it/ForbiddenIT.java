package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A 403 that is not RBAC's, a ResourceQuota exceeded, is reported on the object it concerns (a
 * {@code Reconciled=False} condition with reason QuotaExceeded, a Warning Event, the refused
 * metric) and not as a missing permission: the operator, running under exactly the role generated
 * from it, stays ready throughout.
 */
@ExtendWith(LocalClusterExtension.class)
class ForbiddenIT {

  @Group("forbidden.it.converge.dev")
  @Version("v1")
  public static class QuotaWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, QuotaWidget.class);
  }

  @Test
  void aQuotaRefusalIsReportedOnTheObjectAndTheOperatorStaysReady(
      LocalCluster cluster, KubernetesClient admin, TestNamespace ns) {
    // Room for the namespace's kube-root-ca.crt and one ConfigMap more. The controller manager
    // publishes kube-root-ca.crt into a new namespace on its own time; were it to come after the
    // quota's usage was counted, the second widget's ConfigMap would fit and the root CA's would
    // be refused instead.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> admin.configMaps().withName("kube-root-ca.crt").get() != null);
    ResourceQuota quota =
        new ResourceQuotaBuilder()
            .withNewMetadata()
            .withName("configmaps")
            .endMetadata()
            .withNewSpec()
            .addToHard("count/configmaps", new Quantity("2"))
            .endSpec()
            .build();
    admin.resource(quota).create();
    // The quota admission needs the quota's usage, which the controller manager computes.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              ResourceQuota live = admin.resourceQuotas().withName("configmaps").get();
              return live.getStatus() != null
                  && live.getStatus().getUsed() != null
                  && new Quantity("1").equals(live.getStatus().getUsed().get("count/configmaps"));
            });

    String user = "forbidden-it-operator";
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubernetesClient asUser = cluster.clientAs(user);
        Operator operator =
            Operator.builder(asUser)
                .name("forbidden-it")
                .namespace(ns.name())
                .meterRegistry(registry)
                .accessReviewInterval(Duration.ofSeconds(1))
                .controller(
                    ControllerBuilder.forPrimary(QuotaWidget.class)
                        .build(
                            (widget, context) -> {
                              ConfigMap desired =
                                  new ConfigMapBuilder()
                                      .withNewMetadata()
                                      .withName(widget.getMetadata().getName())
                                      .withNamespace(widget.getMetadata().getNamespace())
                                      .endMetadata()
                                      .addToData("value", widget.getSpec().getData())
                                      .build();
                              context
                                  .client()
                                  .resource(desired)
                                  .fieldManager("forbidden-it")
                                  .forceConflicts()
                                  .serverSideApply();
                              Widgets.setReady(
                                  context, widget, ConditionStatus.TRUE, "Reconciled", "ok");
                              return Result.done();
                            }))
                .build()) {
      grant(
          admin,
          ns,
          user,
          operator
              .permissions()
              .clusterRole("forbidden-it-" + Integer.toHexString(ns.name().hashCode())));
      operator.start();
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(60))).isTrue();
      await().atMost(Duration.ofSeconds(60)).until(() -> operator.health().ready());

      admin.resource(widget("first", "fits")).create();
      await().atMost(Duration.ofSeconds(60)).until(() -> Widgets.isReady(get(admin, "first")));

      // The quota is used up: the next ConfigMap is refused with 403 "exceeded quota".
      admin.resource(widget("second", "too-many")).create();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  reconciled(get(admin, "second"))
                      .filter(c -> "False".equals(c.getStatus()))
                      .isPresent());
      Condition condition = reconciled(get(admin, "second")).orElseThrow();
      assertThat(condition.getReason()).isEqualTo("QuotaExceeded");
      assertThat(condition.getMessage()).contains("exceeded quota").contains("configmaps");
      assertThat(condition.getObservedGeneration()).isEqualTo(1L);

      await().atMost(Duration.ofSeconds(30)).until(() -> warnings(admin, ns, "second").size() == 1);
      Event warning = warnings(admin, ns, "second").get(0);
      assertThat(warning.getReason()).isEqualTo("QuotaExceeded");
      assertThat(warning.getMessage()).contains("exceeded quota");
      Counter refused =
          registry.find("converge.reconcile.refused").tag("reason", "quota-exceeded").counter();
      assertThat(refused).isNotNull();
      assertThat(refused.count()).isGreaterThanOrEqualTo(1.0);

      // Not a missing permission: ready all along, while access reviews run every second.
      await()
          .during(Duration.ofSeconds(10))
          .atMost(Duration.ofSeconds(40))
          .untilAsserted(
              () -> {
                OperatorHealth health = operator.health();
                assertThat(health.problems()).noneMatch(p -> p.startsWith("RBAC"));
                assertThat(health.ready()).isTrue();
              });
      assertThat(
              registry.find(MicrometerControllerMetrics.ACCESS_REFUSED).counters().stream()
                  .mapToDouble(Counter::count)
                  .sum())
          .isZero();

      // Room again, and a new spec: reconciled, the condition goes.
      admin
          .resourceQuotas()
          .withName("configmaps")
          .edit(
              q -> {
                q.getSpec().setHard(Map.of("count/configmaps", new Quantity("5")));
                return q;
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                ResourceQuota live = admin.resourceQuotas().withName("configmaps").get();
                Quantity hard =
                    live.getStatus() == null || live.getStatus().getHard() == null
                        ? null
                        : live.getStatus().getHard().get("count/configmaps");
                return hard != null && "5".equals(hard.getAmount());
              });
      admin
          .resources(QuotaWidget.class)
          .withName("second")
          .edit(
              w -> {
                w.getSpec().setData("fits-now");
                return w;
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                QuotaWidget w = get(admin, "second");
                return reconciled(w).isEmpty() && Widgets.isReady(w);
              });
      assertThat(admin.configMaps().withName("second").get().getData())
          .containsEntry("value", "fits-now");
    }
  }

  /** The role generated from the operator, bound in the test namespace to {@code user}. */
  private static void grant(
      KubernetesClient admin, TestNamespace ns, String user, ClusterRole generated) {
    // The reconciler writes its ConfigMaps with the client directly (server-side apply, which
    // creates), not through a strategy, so the generated role does not know of them.
    List<PolicyRule> rules = new ArrayList<>(generated.getRules());
    rules.add(
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("configmaps")
            .withVerbs("create", "patch")
            .build());
    generated.setRules(rules);
    admin.resource(generated).serverSideApply();
    admin
        .rbac()
        .roleBindings()
        .inNamespace(ns.name())
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(user)
                .endMetadata()
                .withNewRoleRef(
                    "rbac.authorization.k8s.io", "ClusterRole", generated.getMetadata().getName())
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(user)
                .endSubject()
                .build())
        .create();
  }

  private static QuotaWidget widget(String name, String data) {
    QuotaWidget w = new QuotaWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setData(data);
    return w;
  }

  private static QuotaWidget get(KubernetesClient client, String name) {
    return client.resources(QuotaWidget.class).withName(name).get();
  }

  private static java.util.Optional<Condition> reconciled(QuotaWidget widget) {
    if (widget == null
        || widget.getStatus() == null
        || widget.getStatus().getConditions() == null) {
      return java.util.Optional.empty();
    }
    return widget.getStatus().getConditions().stream()
        .filter(c -> "Reconciled".equals(c.getType()))
        .findFirst();
  }

  private static List<Event> warnings(KubernetesClient client, TestNamespace ns, String name) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "Warning".equals(e.getType()))
        .toList();
  }
}
