package dev.converge.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.finalizer.CleanupResult;
import dev.converge.finalizer.FinalizingReconciler;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.schema.ApiKind;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.CreateOnlyStrategy;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@code Operator.permissions()} derives from an operator's parts, without a cluster. */
class OperatorPermissionsTest {

  /** A custom resource with a status type. */
  @Group("rbac.test.converge.dev")
  @Version("v1")
  public static class Gadget extends CustomResource<Map<String, String>, Map<String, String>>
      implements Namespaced {}

  /** A custom resource without status. */
  @Group("rbac.test.converge.dev")
  @Version("v1")
  public static class Plain extends CustomResource<Map<String, String>, Void>
      implements Namespaced {}

  private final KubernetesClient client = org.mockito.Mockito.mock(KubernetesClient.class);

  /** A strategy that sends only what it declares. */
  private record Declared(String name, Set<String> verbs) implements ResourceStrategy {
    @Override
    public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
      throw new UnsupportedOperationException("never applied here");
    }
  }

  private static StrategySelector selector(StrategySelection selection) {
    return new StrategySelector(
        Map.of(
            "put", new Declared("put", Set.of("create", "update")),
            "merge", new Declared("merge", Set.of("create", "patch"))),
        selection);
  }

  @Test
  void rulesFollowWhatTheOperatorWatchesOwnsAndWrites() {
    Operator operator =
        Operator.builder(client)
            .name("widgets")
            // the default event recorder: Events are written
            .strategies(
                selector(
                    StrategySelection.all("put")
                        .with(
                            StrategyRule.byName(
                                ApiKind.parse("v1/Service"), "*-metrics", "merge"))))
            .leaderElection(LeaderElection.onLease("ops", "widgets"))
            .cache(Namespace.class)
            .controller(
                ControllerBuilder.forPrimary(Gadget.class)
                    .owns(Deployment.class)
                    .owns(Service.class)
                    .watches(Secret.class, (s, caches) -> List.of())
                    .alsoUses(Job.class, "get", "delete")
                    .build(
                        FinalizingReconciler.wrap(
                            "example.com/cleanup",
                            (w, ctx) -> CleanupResult.done(),
                            (w, ctx) -> Result.done())))
            .build();

    OperatorPermissions permissions = operator.permissions();

    ClusterRole role = permissions.clusterRole("widgets");
    assertThat(role.getRules())
        .extracting(OperatorPermissionsTest::line)
        .containsExactly(
            " events [create, patch]",
            " namespaces [get, list, watch]",
            " secrets [get, list, watch]",
            // put (create, update) for the kind, merge (create, patch) for the *-metrics rule
            " services [create, get, list, patch, update, watch]",
            "apps deployments [create, get, list, update, watch]",
            "batch jobs [delete, get]",
            // informer, plus the finalizer's merge patch
            "rbac.test.converge.dev gadgets [get, list, patch, watch]",
            // blockOwnerDeletion on what it owns
            "rbac.test.converge.dev gadgets/finalizers [update]",
            "rbac.test.converge.dev gadgets/status [patch]");
    assertThat(permissions.leaseNamespace()).contains("ops");
    assertThat(
            permissions
                .leaderElectionRole("widgets-leader-election", "widgets")
                .orElseThrow()
                .getRules())
        .extracting(OperatorPermissionsTest::line)
        .containsExactly("coordination.k8s.io leases [create, get, patch]");
    assertThat(permissions.clusterRules())
        .filteredOn(r -> r.resource().equals("services"))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reasons())
                    .contains(
                        "controller gadget: Context.apply of v1/Service (strategy put)",
                        "controller gadget: Context.apply of v1/Service[name=*-metrics] (strategy merge)"));
  }

  @Test
  void aPruningControllerMayDeleteWhatItOwnsAndCreateOnlyNeedsOnlyCreate() {
    Operator operator =
        Operator.builder(client)
            .events(EventRecorder.discarding())
            .strategies(
                new StrategySelector(
                    Map.of(
                        "put",
                        new Declared("put", Set.of("create", "update")),
                        CreateOnlyStrategy.NAME,
                        new CreateOnlyStrategy()),
                    StrategySelection.all("put")
                        .with(ApiKind.parse("v1/Secret"), CreateOnlyStrategy.NAME)))
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class)
                    .owns(Secret.class)
                    .owns(Deployment.class)
                    .pruneOwned()
                    .build((c, ctx) -> Result.done()))
            .controller(
                ControllerBuilder.forPrimary(Service.class)
                    .owns(Job.class)
                    .build((c, ctx) -> Result.done()))
            .build();

    assertThat(operator.permissions().clusterRole("pruner").getRules())
        .extracting(OperatorPermissionsTest::line)
        .containsExactly(
            " configmaps [get, list, watch]",
            " configmaps/finalizers [update]",
            " secrets [create, delete, get, list, watch]",
            " services [get, list, watch]",
            " services/finalizers [update]",
            "apps deployments [create, delete, get, list, update, watch]",
            // owned by a controller that does not prune: no delete
            "batch jobs [create, get, list, update, watch]");
    assertThat(operator.permissions().clusterRules())
        .filteredOn(r -> r.resource().equals("secrets"))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reasons())
                    .contains(
                        "controller configmap: prunes the Secret objects it controls and no longer"
                            + " applies (ControllerBuilder.pruneOwned)"));
  }

  @Test
  void aReadOnlyControllerWithoutEventsOrLeaderElectionNeedsReadsOnly() {
    Operator operator =
        Operator.builder(client)
            .events(EventRecorder.discarding())
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class).build((c, ctx) -> Result.done()))
            .build();

    assertThat(operator.permissions().clusterRole("reader").getRules())
        .extracting(OperatorPermissionsTest::line)
        .containsExactly(" configmaps [get, list, watch]");
    assertThat(operator.permissions().leaderElectionRole("x", "reader")).isEmpty();
    assertThat(operator.permissions().manifests("reader", "ops", "reader"))
        .extracting(HasMetadata::getKind)
        .containsExactly("ClusterRole", "ClusterRoleBinding");
  }

  @Test
  void aCustomResourceWithoutStatusGetsNoStatusRule() {
    Operator operator =
        Operator.builder(client)
            .events(EventRecorder.discarding())
            .controller(ControllerBuilder.forPrimary(Plain.class).build((c, ctx) -> Result.done()))
            .build();

    assertThat(operator.permissions().clusterRules())
        .extracting(AccessRule::qualifiedResource)
        .containsExactly("plains.rbac.test.converge.dev");
  }

  @Test
  void aWordThatIsNoVerbIsRefusedNamingTheKind() {
    assertThatThrownBy(
            () -> ControllerBuilder.forPrimary(ConfigMap.class).alsoUses(Secret.class, "read"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'read' is not an RBAC verb for secrets");
  }

  private static String line(PolicyRule rule) {
    return String.join(",", rule.getApiGroups())
        + " "
        + String.join(",", rule.getResources())
        + " "
        + rule.getVerbs();
  }
}
