package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Set;

/**
 * How the desired state of one kind is written to the API server.
 *
 * <p>A strategy makes one live object match one desired object. Implementations must send no write
 * request at all when live already matches desired, even though the API server has filled in
 * defaults the desired object does not mention: a reconcile loop calls {@code apply} on every event
 * and resync, and a write that changes nothing still costs an etcd write, a new resourceVersion and
 * a watch event for every informer on that kind.
 *
 * <p>Strategies are stateless and thread-safe; per-call state lives in the {@link StrategyContext}.
 * A strategy jar lists its strategies in {@code
 * META-INF/services/dev.converge.strategy.ResourceStrategy}, where {@link
 * StrategySelector#findInstalled} finds them; an operator's own are added to its builder. Which
 * strategy writes which kind is the {@link StrategySelection}'s choice, applied by {@link
 * StrategySelector}.
 */
public interface ResourceStrategy {

  /**
   * The name used in configuration, for example {@code "ssa"}; unique among installed strategies.
   *
   * @return the strategy's name, never blank
   */
  String name();

  /**
   * Makes the live object named by {@code desired} match it, creating it when absent.
   *
   * @param <R> the resource type
   * @param desired the object as the operator wants it; its kind, namespace and name identify the
   *     live object
   * @param context the client, the field manager and the read path for live objects
   * @return what happened and the live object after it
   * @throws ResourceWriteException when the API server rejects the write (naming the resource and,
   *     where the server reports them, the offending fields) or conflicts persist
   */
  <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context);

  /**
   * The RBAC verbs {@link #apply} needs on a kind it writes, besides the {@code get}, {@code list}
   * and {@code watch} its informer needs anyway: the operator's generated ClusterRole grants
   * exactly these on each kind this strategy is chosen for. A strategy of your own should name what
   * it sends; the default is every write verb but delete.
   *
   * @return RBAC verbs, such as {@code patch}
   */
  default Set<String> verbs() {
    return Set.of("create", "update", "patch");
  }

  /**
   * Deletes the object named by {@code resource} with the given propagation policy.
   *
   * @param resource an object whose kind, namespace and name identify the one to delete
   * @param propagation what becomes of the objects it owns: deleted after it ({@code BACKGROUND}),
   *     before it ({@code FOREGROUND}) or kept ({@code ORPHAN})
   * @param context the client to delete with
   * @return true when a delete request was accepted, false when the object was already gone
   */
  default boolean delete(
      HasMetadata resource, DeletionPropagation propagation, StrategyContext context) {
    return !context
        .client()
        .resource(resource)
        .withPropagationPolicy(propagation)
        .delete()
        .isEmpty();
  }
}
