package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.finalizer.FinalizingReconciler;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.operator.LeaderElection;
import dev.converge.rbac.AccessRule;
import dev.converge.rbac.OperatorPermissions;
import dev.converge.schema.ApiKind;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Computes an operator's {@link OperatorPermissions} from what it is built of, the way the runtime
 * will use the API server:
 *
 * <ul>
 *   <li>every kind an informer caches (primaries, owned and watched kinds, extra caches): get,
 *       list, watch;
 *   <li>every owned kind: the verbs of each strategy the selection may choose for it (its kind's
 *       and those of rules on it);
 *   <li>every owned kind of a controller that prunes: delete;
 *   <li>a primary that owns kinds: update on its {@code finalizers} subresource, because {@code
 *       Context.apply} sets {@code blockOwnerDeletion} (checked where the
 *       OwnerReferencesPermissionEnforcement admission plugin is on);
 *   <li>a custom-resource primary with a status type: patch on {@code status} (the status writer's
 *       merge patch);
 *   <li>a primary wrapped in {@link FinalizingReconciler}: patch (the finalizer merge patch);
 *   <li>Events: what the event recorder declares (the default one: create, and patch to fold
 *       repeats into a count; a discarding one: nothing);
 *   <li>with leader election, in the Lease's namespace: Leases get, create, patch; sharded, also
 *       list, watch, update and delete (the shard ring), and patch on each primary (its labels);
 *   <li>what controllers declared with {@code ControllerBuilder.alsoUses}.
 * </ul>
 */
public final class RequiredPermissions {

  private final Map<String, AccessRule> cluster = new TreeMap<>();
  private final Map<String, AccessRule> lease = new TreeMap<>();

  private RequiredPermissions() {}

  /**
   * What an operator of these controllers needs from RBAC.
   *
   * @param strategies the strategies owned kinds are written with; empty only when no controller
   *     owns a kind
   */
  public static OperatorPermissions of(
      Collection<? extends ControllerDefinition<?>> controllers,
      Collection<Class<? extends HasMetadata>> extraCaches,
      Optional<StrategySelector> strategies,
      Optional<LeaderElection> leaderElection,
      Set<String> eventVerbs,
      String operatorName,
      boolean sharded) {
    RequiredPermissions plan = new RequiredPermissions();
    for (ControllerDefinition<?> controller : controllers) {
      plan.controller(controller, strategies);
      if (sharded) {
        plan.add(
            plan.cluster,
            AccessRule.on(
                controller.primaryType(),
                "",
                List.of("patch"),
                "operator "
                    + operatorName
                    + ": sharding (the sharder labels each primary for a member; a member removes"
                    + " the labels to hand one over, by merge patch)"));
      }
    }
    for (Class<? extends HasMetadata> type : extraCaches) {
      plan.add(
          plan.cluster,
          AccessRule.on(
              type,
              "",
              List.of("get", "list", "watch"),
              "operator "
                  + operatorName
                  + ": cache of "
                  + HasMetadata.getKind(type)
                  + " (OperatorBuilder.cache)"));
    }
    if (!eventVerbs.isEmpty()) {
      plan.add(
          plan.cluster,
          AccessRule.on(
              Event.class,
              "",
              eventVerbs,
              "operator " + operatorName + ": Events (created, then patched to count repeats)"));
    }
    leaderElection.ifPresent(
        le ->
            plan.add(
                plan.lease,
                AccessRule.on(
                    Lease.class,
                    "",
                    List.of("get", "create", "patch"),
                    "operator "
                        + operatorName
                        + ": leader election on Lease "
                        + le.leaseNamespace()
                        + "/"
                        + le.leaseName()
                        + " (read, created once, renewed by patch)")));
    if (sharded) {
      leaderElection.ifPresent(
          le ->
              plan.add(
                  plan.lease,
                  AccessRule.on(
                      Lease.class,
                      "",
                      List.of("get", "list", "watch", "create", "update", "delete"),
                      "operator "
                          + operatorName
                          + ": shard ring "
                          + le.leaseName()
                          + " (each replica's own Lease, renewed by update and deleted when it"
                          + " leaves; the sharder watches them all)")));
    }
    return new OperatorPermissions(
        List.copyOf(plan.cluster.values()),
        leaderElection.map(LeaderElection::leaseNamespace),
        List.copyOf(plan.lease.values()));
  }

  private void controller(
      ControllerDefinition<?> controller, Optional<StrategySelector> strategies) {
    String who = "controller " + controller.name();
    Class<? extends HasMetadata> primary = controller.primaryType();
    String primaryKind = HasMetadata.getKind(primary);
    Set<Class<? extends HasMetadata>> owned = new LinkedHashSet<>();
    for (WatchDefinition<?> watch : controller.watches()) {
      String kind = HasMetadata.getKind(watch.type());
      boolean isOwned = watch.handler() instanceof EnqueueControllerOwner<?>;
      String role =
          watch.type().equals(primary) && !isOwned
              ? "primary " + kind
              : isOwned ? "owns " + kind : "watches " + kind;
      add(
          cluster,
          AccessRule.on(
              watch.type(),
              "",
              List.of("get", "list", "watch"),
              who + ": informer (" + role + ")"));
      if (isOwned) {
        owned.add(watch.type());
      }
    }
    add(
        cluster,
        AccessRule.on(
            primary,
            "",
            List.of("get", "list", "watch"),
            who + ": informer (primary " + primaryKind + ")"));
    for (var index : controller.indexes()) {
      add(
          cluster,
          AccessRule.on(
              index.type(),
              "",
              List.of("get", "list", "watch"),
              who + ": informer (index '" + index.name() + "')"));
    }
    for (Class<? extends HasMetadata> type : owned) {
      StrategySelector selector =
          strategies.orElseThrow(
              () ->
                  new IllegalStateException(
                      who
                          + " owns "
                          + HasMetadata.getKind(type)
                          + " but no strategy is configured"));
      ApiKind kind = new ApiKind(HasMetadata.getApiVersion(type), HasMetadata.getKind(type));
      addStrategy(type, selector.forKind(kind), who + ": Context.apply of " + kind);
      for (StrategyRule rule : selector.selection().rules()) {
        if (rule.kind().equals(kind)) {
          addStrategy(
              type,
              selector.named(rule.strategy()),
              who + ": Context.apply of " + rule.description());
        }
      }
    }
    if (controller.pruneOwned()) {
      for (Class<? extends HasMetadata> type : owned) {
        add(
            cluster,
            AccessRule.on(
                type,
                "",
                List.of("delete"),
                who
                    + ": prunes the "
                    + HasMetadata.getKind(type)
                    + " objects it controls and no longer applies (ControllerBuilder.pruneOwned)"));
      }
    }
    if (!owned.isEmpty()) {
      add(
          cluster,
          AccessRule.on(
              primary,
              "finalizers",
              List.of("update"),
              who
                  + ": owner references with blockOwnerDeletion on what it owns (checked by the"
                  + " OwnerReferencesPermissionEnforcement admission plugin)"));
    }
    if (hasStatus(primary)) {
      add(
          cluster,
          AccessRule.on(
              primary,
              "status",
              List.of("patch"),
              who + ": status writes (merge patch on the status subresource)"));
    }
    if (controller.reconciler() instanceof FinalizingReconciler<?>) {
      add(
          cluster,
          AccessRule.on(
              primary,
              "",
              List.of("patch"),
              who + ": adds and removes its finalizer (merge patch of metadata.finalizers)"));
    }
    for (AccessRule extra : controller.extraAccess()) {
      add(cluster, extra);
    }
  }

  private void addStrategy(
      Class<? extends HasMetadata> type, ResourceStrategy strategy, String why) {
    add(
        cluster,
        AccessRule.on(type, "", strategy.verbs(), why + " (strategy " + strategy.name() + ")"));
  }

  private void add(Map<String, AccessRule> rules, AccessRule rule) {
    rules.merge(rule.group() + " " + rule.resource(), rule, AccessRule::merge);
  }

  /** True for a custom resource whose class declares a status type other than {@code Void}. */
  static boolean hasStatus(Class<?> type) {
    if (!CustomResource.class.isAssignableFrom(type)) {
      return false;
    }
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      Type parent = c.getGenericSuperclass();
      if (parent instanceof ParameterizedType p && p.getRawType() == CustomResource.class) {
        Type status = p.getActualTypeArguments()[1];
        return !(status instanceof Class<?> s) || s != Void.class;
      }
    }
    return true;
  }
}
