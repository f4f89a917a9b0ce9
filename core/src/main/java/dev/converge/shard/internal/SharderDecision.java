package dev.converge.shard.internal;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the sharder does to one object, given the live members and the object's shard labels: the
 * hand-over rules in one pure function, so that they can be checked without a cluster.
 *
 * <p>An object moves between two live members in two steps, so that no two members ever reconcile
 * it at once: the sharder asks the member that has it to let it go ({@link Action#DRAIN}); the
 * member finishes what it is doing and removes both labels; the object, now unassigned, is given to
 * the member the ring names ({@link Action#ASSIGN}). An object whose member is not live is given
 * away at once: a member counted out has stopped writing by then (its fence window is shorter than
 * its lease duration).
 *
 * @param action what to do
 * @param member the label value the action is about: the member to assign the object to ({@link
 *     Action#ASSIGN}), the member asked to let it go ({@link Action#DRAIN}), the member it waits
 *     for ({@link Action#WAIT}), the member that has it ({@link Action#NONE}, null when there is no
 *     live member)
 */
record SharderDecision(Action action, String member) {

  /** The sharder's possible moves on one object. */
  enum Action {
    /** Nothing to do: the object is where the ring wants it, or there is no live member at all. */
    NONE,
    /**
     * Set the shard label to {@link #member()} and remove the drain label: the object is unassigned
     * or its member is not live.
     */
    ASSIGN,
    /**
     * Add the drain label: the object's member is live but the ring now names another one, so the
     * member is asked to let it go.
     */
    DRAIN,
    /** The object is being handed over by a live member: wait until it lets go or dies. */
    WAIT
  }

  SharderDecision {
    Objects.requireNonNull(action, "action");
  }

  /**
   * Decides what to do with the object {@code namespace/name}.
   *
   * @param ring the ring over the live members' identities
   * @param liveValues the shard label values of the live members ({@link ShardLabels#value} of each
   *     member of {@code ring})
   * @param keys the ring's label keys
   * @param namespace the object's namespace; null or empty when cluster-scoped
   * @param name the object's name
   * @param labels the object's labels, possibly null
   * @return the action, never null
   */
  static SharderDecision decide(
      ShardRing ring,
      Set<String> liveValues,
      ShardLabels keys,
      String namespace,
      String name,
      Map<String, String> labels) {
    String current = keys.memberOf(labels);
    if (ring.shards().isEmpty()) {
      // never unassign everything because no Lease has been seen (yet)
      return new SharderDecision(Action.NONE, current);
    }
    String desired = ShardLabels.value(ring.ownerOf(namespace, name).orElseThrow());
    boolean draining = keys.draining(labels);
    if (current == null || !liveValues.contains(current)) {
      return new SharderDecision(Action.ASSIGN, desired);
    }
    if (draining) {
      return new SharderDecision(Action.WAIT, current);
    }
    return current.equals(desired)
        ? new SharderDecision(Action.NONE, current)
        : new SharderDecision(Action.DRAIN, current);
  }
}
