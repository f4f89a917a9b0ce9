package dev.converge.operator;

import java.util.List;
import java.util.Optional;

/**
 * A snapshot for liveness and readiness probes.
 *
 * @param live false when the operator cannot do its job any more and should be restarted: it lost
 *     leadership, or an informer stopped for good, or (only when {@code
 *     OperatorBuilder.hungReconcileFailsLiveness} is on) a reconcile runs past its deadline
 * @param ready true when every cache has synced and watches, RBAC allows everything the operator
 *     needs (its access reviews and the requests it was refused say so), and the operator is leader
 *     or a healthy standby
 * @param state the life-cycle state
 * @param cachesSynced whether every informer delivered its initial list
 * @param leader the identity of the current leader, when leader election is on and one is known
 * @param problems human-readable reasons for not being live or ready
 */
public record OperatorHealth(
    boolean live,
    boolean ready,
    OperatorState state,
    boolean cachesSynced,
    Optional<String> leader,
    List<String> problems) {

  /**
   * Copies the problems, so that a snapshot never changes once made.
   *
   * @param live whether the operator can still do its job
   * @param ready whether the operator is ready
   * @param state the life-cycle state
   * @param cachesSynced whether every informer delivered its initial list
   * @param leader the identity of the current leader, when known
   * @param problems human-readable reasons for not being live or ready
   * @throws NullPointerException when {@code problems} is null or holds a null
   */
  public OperatorHealth {
    problems = List.copyOf(problems);
  }
}
