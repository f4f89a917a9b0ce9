package dev.converge.strategy.ssa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.patch.MergePatchStrategy;
import dev.converge.strategy.update.UpdateStrategy;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each strategy's {@code verbs()} (what the generated ClusterRole grants on a kind it writes) are
 * exactly what it needs, as the API server's RBAC judges it: with get (its reads) and those verbs
 * it creates and changes an object; without any one of them it is refused.
 */
@ExtendWith(LocalClusterExtension.class)
class StrategyVerbsIT {

  static Stream<ResourceStrategy> strategies() {
    return Stream.of(new UpdateStrategy(), new MergePatchStrategy(), new ServerSideApplyStrategy());
  }

  private static ConfigMap settings(String ns, String color) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("settings")
        .withNamespace(ns)
        .endMetadata()
        .addToData("color", color)
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void theDeclaredVerbsAreEnoughAndEachIsNeeded(
      ResourceStrategy strategy, KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    String user = "verbs-" + strategy.name();
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
    Set<String> declared = new TreeSet<>(strategy.verbs());

    try (KubernetesClient asUser = cluster.clientAs(user)) {
      DirectStrategyContext context = new DirectStrategyContext(asUser, "verbs-it");
      for (String missing : declared) {
        Set<String> without = new TreeSet<>(declared);
        without.remove(missing);
        grant(admin, ns, user, without);
        awaitAllowed(asUser, ns, missing, false);
        admin.configMaps().inNamespace(ns.name()).withName("settings").delete();
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> admin.configMaps().inNamespace(ns.name()).withName("settings").get() == null);
        if (missing.equals("create")) {
          assertThatThrownBy(() -> strategy.apply(settings(ns.name(), "red"), context))
              .as("%s without create", strategy.name())
              .satisfies(StrategyVerbsIT::forbidden);
        } else {
          admin.resource(settings(ns.name(), "blue")).create();
          assertThatThrownBy(() -> strategy.apply(settings(ns.name(), "red"), context))
              .as("%s without %s", strategy.name(), missing)
              .satisfies(StrategyVerbsIT::forbidden);
        }
      }

      grant(admin, ns, user, declared);
      for (String verb : declared) {
        awaitAllowed(asUser, ns, verb, true);
      }
      admin.configMaps().inNamespace(ns.name()).withName("settings").delete();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> admin.configMaps().inNamespace(ns.name()).withName("settings").get() == null);
      assertThat(strategy.apply(settings(ns.name(), "red"), context).outcome())
          .isEqualTo(ApplyOutcome.CREATED);
      assertThat(strategy.apply(settings(ns.name(), "green"), context).outcome())
          .isEqualTo(ApplyOutcome.UPDATED);
      assertThat(admin.configMaps().inNamespace(ns.name()).withName("settings").get().getData())
          .containsEntry("color", "green");
    }
  }

  /** Waits until the API server's authorizer has seen the role change. */
  private static void awaitAllowed(
      KubernetesClient asUser, TestNamespace ns, String verb, boolean allowed) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                Boolean.valueOf(allowed)
                    .equals(
                        asUser
                            .authorization()
                            .v1()
                            .selfSubjectAccessReview()
                            .create(
                                new SelfSubjectAccessReviewBuilder()
                                    .withNewSpec()
                                    .withNewResourceAttributes()
                                    .withNamespace(ns.name())
                                    .withResource("configmaps")
                                    .withVerb(verb)
                                    .endResourceAttributes()
                                    .endSpec()
                                    .build())
                            .getStatus()
                            .getAllowed()));
  }

  /** Refused by RBAC: a 403 somewhere in the causes. */
  private static void forbidden(Throwable error) {
    boolean found = false;
    for (Throwable t = error; t != null && !found; t = t.getCause() == t ? null : t.getCause()) {
      found = t instanceof KubernetesClientException kce && kce.getCode() == 403;
    }
    assertThat(found).as("403 Forbidden in %s", error.toString()).isTrue();
  }

  private static void grant(
      KubernetesClient admin, TestNamespace ns, String user, Set<String> verbs) {
    List<String> all = new ArrayList<>(List.of("get"));
    all.addAll(verbs);
    admin
        .rbac()
        .roles()
        .inNamespace(ns.name())
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(user)
                .withNamespace(ns.name())
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs(all)
                .endRule()
                .build())
        .fieldManager("verbs-it")
        .forceConflicts()
        .serverSideApply();
  }
}
