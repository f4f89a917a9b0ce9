package dev.converge.rbac;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an operator needs from RBAC, computed from its definitions by {@code
 * Operator.permissions()} without starting it: rules for a ClusterRole (informers, the writes of
 * each owned kind's strategy, status, finalizers, Events) and, with leader election, rules for a
 * Role in the Lease's namespace.
 *
 * @param clusterRules the ClusterRole's rules, sorted by group and resource
 * @param leaseNamespace the namespace of the leader-election Lease, when leader election is on
 * @param leaseRules the leader-election Role's rules (empty without leader election)
 */
public record OperatorPermissions(
    List<AccessRule> clusterRules, Optional<String> leaseNamespace, List<AccessRule> leaseRules) {

  /** The label every generated object carries, naming the operator. */
  public static final String NAME_LABEL = "app.kubernetes.io/name";

  /**
   * Keeps unmodifiable copies of the rule lists.
   *
   * @param clusterRules the ClusterRole's rules
   * @param leaseNamespace the namespace of the leader-election Lease, when leader election is on
   * @param leaseRules the leader-election Role's rules
   * @throws NullPointerException if an argument or a rule is null
   */
  public OperatorPermissions {
    clusterRules = List.copyOf(clusterRules);
    Objects.requireNonNull(leaseNamespace, "leaseNamespace");
    leaseRules = List.copyOf(leaseRules);
  }

  /**
   * Every rule the operator needs, wherever it is granted, ClusterRole's first.
   *
   * @return the cluster rules followed by the lease rules, a new list
   */
  public List<AccessRule> allRules() {
    List<AccessRule> all = new ArrayList<>(clusterRules);
    all.addAll(leaseRules);
    return all;
  }

  /**
   * The ClusterRole {@code name} granting exactly {@link #clusterRules()}, labelled {@value
   * #NAME_LABEL}={@code name}.
   *
   * @param name the ClusterRole's name, usually the operator's
   * @return a new ClusterRole, not yet sent to any API server
   */
  public ClusterRole clusterRole(String name) {
    return new ClusterRoleBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(Map.of(NAME_LABEL, name))
        .endMetadata()
        .withRules(clusterRules.stream().map(OperatorPermissions::policyRule).toList())
        .build();
  }

  /**
   * The Role {@code name} in the Lease's namespace, when leader election is on, labelled with
   * {@code operatorName}.
   *
   * @param name the Role's name
   * @param operatorName the value of its {@value #NAME_LABEL} label
   * @return a new Role granting exactly {@link #leaseRules()}; empty without leader election
   */
  public Optional<Role> leaderElectionRole(String name, String operatorName) {
    return leaseNamespace.map(
        ns ->
            new RoleBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(Map.of(NAME_LABEL, operatorName))
                .endMetadata()
                .withRules(leaseRules.stream().map(OperatorPermissions::policyRule).toList())
                .build());
  }

  /**
   * The ClusterRole and its ClusterRoleBinding, and with leader election the Role and its
   * RoleBinding ({@code name + "-leader-election"}), bound to the ServiceAccount {@code
   * serviceAccount} in {@code serviceAccountNamespace}: what {@code GenerateRbac} writes, ready to
   * apply.
   *
   * @param name the name of the ClusterRole and its binding, and the value of every object's
   *     {@value #NAME_LABEL} label
   * @param serviceAccountNamespace the namespace of the ServiceAccount the operator runs as
   * @param serviceAccount the name of that ServiceAccount
   * @return the ClusterRole, the ClusterRoleBinding, then with leader election the Role and the
   *     RoleBinding, in that order; a new list
   */
  public List<HasMetadata> manifests(
      String name, String serviceAccountNamespace, String serviceAccount) {
    List<HasMetadata> manifests = new ArrayList<>();
    manifests.add(clusterRole(name));
    manifests.add(
        new ClusterRoleBindingBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(Map.of(NAME_LABEL, name))
            .endMetadata()
            .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", name)
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(serviceAccount)
            .withNamespace(serviceAccountNamespace)
            .endSubject()
            .build());
    String leaderName = name + "-leader-election";
    leaderElectionRole(leaderName, name)
        .ifPresent(
            role -> {
              manifests.add(role);
              manifests.add(
                  new RoleBindingBuilder()
                      .withNewMetadata()
                      .withName(leaderName)
                      .withNamespace(role.getMetadata().getNamespace())
                      .withLabels(Map.of(NAME_LABEL, name))
                      .endMetadata()
                      .withNewRoleRef("rbac.authorization.k8s.io", "Role", leaderName)
                      .addNewSubject()
                      .withKind("ServiceAccount")
                      .withName(serviceAccount)
                      .withNamespace(serviceAccountNamespace)
                      .endSubject()
                      .build());
            });
    return manifests;
  }

  private static PolicyRule policyRule(AccessRule rule) {
    return new PolicyRuleBuilder()
        .withApiGroups(rule.group())
        .withResources(rule.resource())
        .withVerbs(List.copyOf(rule.verbs()))
        .build();
  }
}
