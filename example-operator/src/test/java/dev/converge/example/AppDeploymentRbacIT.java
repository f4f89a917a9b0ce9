package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.controller.AppDeploymentReconciler;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import dev.converge.testing.operator.TestCrds;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator authorized only as its ServiceAccount with the shipped ClusterRole (impersonation:
 * the API server applies exactly that account's RBAC rules) does its whole job, and is refused what
 * the role does not grant.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentRbacIT {

  static final String SA_NAMESPACE = "app-operator";
  static final String SA = "system:serviceaccount:" + SA_NAMESPACE + ":app-operator";
  static final String[] SA_GROUPS = {
    "system:serviceaccounts", "system:serviceaccounts:" + SA_NAMESPACE, "system:authenticated"
  };

  @Test
  void theShippedClusterRoleIsEnoughForEverything(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator operator =
        AppOperatorRun.startAs(cluster, ns.name(), builder -> {}, SA, SA_GROUPS)) {
      Lifecycle.run(admin, ns.name(), operator);

      // Missing ConfigMap, then created: read access to ConfigMaps suffices.
      state.create("late", "nginx:1.27", 1, "late-config");
      await()
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () ->
                  assertThat(
                          state.condition("late", AppDeploymentStatus.CONFIG_RESOLVED).getReason())
                      .isEqualTo(AppDeploymentReconciler.REASON_CONFIG_MAP_NOT_FOUND));
      state.putConfigMap("late-config", Map.of("X", "1"));
      state.awaitRunning("late", 1);

      // A permanent failure records a Warning event: events may be created.
      state.create("broken", "UPPER/case", 1, null);
      await()
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () -> {
                assertThat(state.phase("broken")).isEqualTo(Phase.Failed);
                assertThat(admin.v1().events().inNamespace(ns.name()).list().getItems())
                    .anyMatch(
                        e ->
                            "broken".equals(e.getInvolvedObject().getName())
                                && "Warning".equals(e.getType()));
              });
    }
  }

  @Test
  void whatTheRoleDoesNotGrantIsRefused(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    TestCrds.installOnce(cluster, AppDeployment.class);
    new ClusterState(admin, ns.name()).create("web", "nginx:1.27", 1, null);

    try (KubernetesClient asOperator = cluster.clientAs(SA, SA_GROUPS)) {
      // RBAC is checked before existence: refused requests fail with 403 whether or not the
      // object exists. What it may do, for contrast:
      assertThat(asOperator.resources(AppDeployment.class).inNamespace(ns.name()).list().getItems())
          .hasSize(1);

      assertForbidden(
          () -> asOperator.apps().deployments().inNamespace(ns.name()).withName("web").delete());
      assertForbidden(
          () ->
              asOperator
                  .configMaps()
                  .inNamespace(ns.name())
                  .resource(
                      new ConfigMapBuilder()
                          .withNewMetadata()
                          .withName("nope")
                          .endMetadata()
                          .build())
                  .create());
      assertForbidden(() -> asOperator.secrets().inNamespace(ns.name()).list());
      assertForbidden(() -> asOperator.pods().inNamespace(ns.name()).list());
      assertForbidden(
          () ->
              asOperator
                  .resources(AppDeployment.class)
                  .inNamespace(ns.name())
                  .withName("web")
                  .delete());
      assertForbidden(
          () ->
              asOperator
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(AppDeployment.CRD_NAME)
                  .edit(
                      crd -> {
                        crd.getMetadata().setLabels(Map.of("touched", "true"));
                        return crd;
                      }));
      assertForbidden(
          () ->
              asOperator
                  .rbac()
                  .clusterRoles()
                  .withName("app-operator")
                  .edit(
                      role -> {
                        role.getMetadata().setLabels(Map.of("escalate", "true"));
                        return role;
                      }));
    }
  }

  @Test
  void shardedAsShippedTheRolesCoverTheLeasesAndTheLabels(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    String lease = "app-operator-" + ns.name().hashCode();
    String namespace = ns.name();
    Consumer<OperatorBuilder> settings =
        b -> b.leaderElection(LeaderElection.onLease(SA_NAMESPACE, lease)).sharded();
    try (RunningOperator operator =
        AppOperatorRun.startAs(cluster, namespace, settings, SA, SA_GROUPS)) {
      await("leader")
          .atMost(ClusterState.CONVERGE)
          .until(() -> operator.operator().isReconciling());
      assertThat(
              admin
                  .leases()
                  .inNamespace(SA_NAMESPACE)
                  .withName(lease)
                  .get()
                  .getSpec()
                  .getHolderIdentity())
          .isNotBlank();
      ClusterState state = new ClusterState(admin, ns.name());
      state.create("elected", "nginx:1.27", 1, null);
      state.awaitRunning("elected", 1);
      // The replica's own shard Lease, and the sharder's label on the AppDeployment: both written
      // with the shipped roles' verbs.
      assertThat(
              admin
                  .leases()
                  .inNamespace(SA_NAMESPACE)
                  .withLabel("shard.converge.dev/ring", lease)
                  .list()
                  .getItems())
          .hasSize(1);
      assertThat(
              admin
                  .resources(AppDeployment.class)
                  .inNamespace(ns.name())
                  .withName("elected")
                  .get()
                  .getMetadata()
                  .getLabels())
          .containsKey("shard.converge.dev/" + lease);
    }
  }

  /**
   * Each rule of the generated ClusterRole and leader-election Role, taken away in turn from a
   * running operator whose open watches keep delivering: health turns unready naming every verb of
   * the rule and its resource, the {@code converge.access.denied} gauge says 1; where a write of
   * the rule can be provoked (a spec change), the API server's 403 is reported too ({@code
   * converge.access.refused}). Given back, the operator is ready again and the provoked change goes
   * through.
   */
  @Test
  void eachGeneratedRuleTakenAwayIsReportedAndGivenBackRecovers(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    // A role and an account of this test's own, copies of the generated ones, so that taking
    // rules away touches no other test.
    String id = "rbac-loss-" + Integer.toHexString(ns.name().hashCode());
    ClusterRole generated =
        (ClusterRole)
            load(admin, "20-clusterrole.yaml").stream()
                .filter(ClusterRole.class::isInstance)
                .findFirst()
                .orElseThrow();
    Role generatedLease =
        (Role)
            load(admin, "30-role-leader-election.yaml").stream()
                .filter(Role.class::isInstance)
                .findFirst()
                .orElseThrow();
    List<PolicyRule> rules = generated.getRules();
    List<PolicyRule> leaseRules = generatedLease.getRules();
    assertThat(rules).hasSize(7);
    assertThat(leaseRules).hasSize(1);
    putClusterRole(admin, id, rules);
    putLeaseRole(admin, id, leaseRules);
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(id)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", id)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(id)
                .withNamespace(SA_NAMESPACE)
                .endSubject()
                .build())
        .serverSideApply();
    admin
        .rbac()
        .roleBindings()
        .inNamespace(SA_NAMESPACE)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(id)
                .withNamespace(SA_NAMESPACE)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", id)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(id)
                .withNamespace(SA_NAMESPACE)
                .endSubject()
                .build())
        .serverSideApply();

    String namespace = ns.name();
    Consumer<OperatorBuilder> settings =
        b ->
            b.leaderElection(LeaderElection.onLease(SA_NAMESPACE, id))
                .sharded()
                .accessReviewInterval(Duration.ofSeconds(1));
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator running =
        AppOperatorRun.startAs(
            cluster,
            namespace,
            settings,
            "system:serviceaccount:" + SA_NAMESPACE + ":" + id,
            SA_GROUPS)) {
      Operator operator = running.operator();
      state.putConfigMap("web-config", Map.of("GREETING", "hello"));
      state.create("web", "nginx:1.27", 1, "web-config");
      state.awaitRunning("web", 1);
      await("ready with the generated roles")
          .atMost(ClusterState.CONVERGE)
          .untilAsserted(
              () ->
                  assertThat(operator.health().ready())
                      .as("%s", operator.health().problems())
                      .isTrue());

      int replicas = 1;
      int port = AppDeploymentSpec.DEFAULT_PORT;
      for (int i = 0; i < rules.size(); i++) {
        PolicyRule removed = rules.get(i);
        List<PolicyRule> rest = new ArrayList<>(rules);
        rest.remove(i);
        putClusterRole(admin, id, rest);

        awaitReported(running, removed, ns.name());
        String resource = qualified(removed);
        // Where the rule's write can be provoked, the API server's refusal is reported as well.
        String refusedVerb =
            switch (resource) {
              case "deployments.apps" -> "patch";
              case "services" -> "update";
              case "appdeployments.apps.converge.dev/status" -> "patch";
              // checked by the OwnerReferencesPermissionEnforcement admission plugin, which the
              // local control plane runs (an existing cluster may not)
              case "appdeployments.apps.converge.dev/finalizers" ->
                  cluster.faults().isPresent() ? "update" : null;
              default -> null;
            };
        if ("update".equals(refusedVerb) && resource.endsWith("/finalizers")) {
          // only a new owned object sets blockOwnerDeletion: a new AppDeployment's Deployment
          state.create("second", "nginx:1.27", 1, null);
        } else if (refusedVerb != null) {
          if (resource.equals("services")) {
            port++;
          } else {
            replicas = replicas == 1 ? 2 : 1;
          }
          int wantedReplicas = replicas;
          int wantedPort = port;
          state.editSpec(
              "web",
              spec ->
                  new AppDeploymentSpec(
                      spec.image(), wantedReplicas, spec.configMapName(), wantedPort));
        }
        if (refusedVerb != null) {
          await("403 on " + refusedVerb + " " + resource + " reported")
              .atMost(ClusterState.CONVERGE)
              .untilAsserted(
                  () -> {
                    Counter refused =
                        running
                            .meters()
                            .find("converge.access.refused")
                            .tag("resource", resource)
                            .tag("verb", refusedVerb)
                            .counter();
                    assertThat(refused)
                        .as("converge.access.refused %s %s", resource, refusedVerb)
                        .isNotNull();
                    assertThat(refused.count()).isPositive();
                    assertThat(operator.health().problems())
                        .anyMatch(
                            p ->
                                p.contains(refusedVerb + " " + resource)
                                    && p.contains("the API server refused"));
                  });
        }

        putClusterRole(admin, id, rules);
        awaitRecovered(running, removed);
        if (refusedVerb != null) {
          int wantedReplicas = replicas;
          int wantedPort = port;
          state.awaitRunning(
              resource.endsWith("/finalizers") ? "second" : "web",
              resource.endsWith("/finalizers") ? 1 : wantedReplicas);
          await("Service port " + wantedPort)
              .atMost(ClusterState.CONVERGE)
              .untilAsserted(
                  () ->
                      assertThat(
                              state
                                  .service("web")
                                  .orElseThrow()
                                  .getSpec()
                                  .getPorts()
                                  .get(0)
                                  .getPort())
                          .isEqualTo(wantedPort));
        }
      }

      // The Lease: renewals would be refused, and the operator says so before the renew
      // deadline ends its leadership; given back in time, it still leads.
      putLeaseRole(admin, id, List.of());
      awaitReported(running, leaseRules.get(0), SA_NAMESPACE);
      putLeaseRole(admin, id, leaseRules);
      awaitRecovered(running, leaseRules.get(0));
      assertThat(operator.isReconciling()).as("still the leader").isTrue();
    } finally {
      admin.rbac().clusterRoleBindings().withName(id).delete();
      admin.rbac().clusterRoles().withName(id).delete();
    }
  }

  private static void awaitReported(RunningOperator running, PolicyRule removed, String namespace) {
    String resource = qualified(removed);
    await("taking away " + removed.getVerbs() + " on " + resource + " reported")
        .atMost(Duration.ofSeconds(8))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              var health = running.operator().health();
              assertThat(health.ready()).as("ready without %s", resource).isFalse();
              for (String verb : removed.getVerbs()) {
                assertThat(health.problems())
                    .as("health problems")
                    .anyMatch(
                        p ->
                            p.startsWith(
                                "RBAC: may not "
                                    + verb
                                    + " "
                                    + resource
                                    + " in namespace "
                                    + namespace));
                assertThat(
                        running
                            .meters()
                            .find("converge.access.denied")
                            .tag("resource", resource)
                            .tag("verb", verb)
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
              }
            });
  }

  private static void awaitRecovered(RunningOperator running, PolicyRule restored) {
    String resource = qualified(restored);
    await("giving back " + resource + " recovers")
        .atMost(ClusterState.CONVERGE)
        .untilAsserted(
            () -> {
              var health = running.operator().health();
              assertThat(health.problems()).noneMatch(p -> p.startsWith("RBAC"));
              assertThat(health.ready()).as("%s", health.problems()).isTrue();
              for (String verb : restored.getVerbs()) {
                assertThat(
                        running
                            .meters()
                            .find("converge.access.denied")
                            .tag("resource", resource)
                            .tag("verb", verb)
                            .gauge()
                            .value())
                    .isEqualTo(0.0);
              }
            });
  }

  /**
   * {@code deployments.apps}, {@code services}, {@code appdeployments.apps.converge.dev/status}.
   */
  private static String qualified(PolicyRule rule) {
    String group = rule.getApiGroups().get(0);
    String[] parts = rule.getResources().get(0).split("/", 2);
    return parts[0]
        + (group.isEmpty() ? "" : "." + group)
        + (parts.length > 1 ? "/" + parts[1] : "");
  }

  private static void putClusterRole(KubernetesClient admin, String name, List<PolicyRule> rules) {
    admin
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withRules(rules)
                .build())
        .fieldManager("rbac-it")
        .forceConflicts()
        .serverSideApply();
  }

  private static void putLeaseRole(KubernetesClient admin, String name, List<PolicyRule> rules) {
    admin
        .rbac()
        .roles()
        .inNamespace(SA_NAMESPACE)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(SA_NAMESPACE)
                .endMetadata()
                .withRules(rules)
                .build())
        .fieldManager("rbac-it")
        .forceConflicts()
        .serverSideApply();
  }

  private static List<HasMetadata> load(KubernetesClient admin, String file) throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target", "deploy", file))) {
      return admin.load(in).items();
    }
  }

  private static void assertForbidden(ThrowingCallable call) {
    assertThatThrownBy(call::call)
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
  }

  @FunctionalInterface
  interface ThrowingCallable {
    Object call() throws Exception;
  }

  /**
   * Applies target/deploy/00..30 (namespace, ServiceAccount, and the ClusterRole, Role and bindings
   * generated from the operator by the build) as shipped.
   */
  static void applyShippedRbac(KubernetesClient admin) throws IOException {
    for (String file :
        List.of(
            "00-namespace.yaml",
            "10-serviceaccount.yaml",
            "20-clusterrole.yaml",
            "30-role-leader-election.yaml")) {
      try (InputStream in = Files.newInputStream(Path.of("target", "deploy", file))) {
        for (HasMetadata item : admin.load(in).items()) {
          admin.resource(item).fieldManager("rbac-it").forceConflicts().serverSideApply();
        }
      }
    }
  }
}
