package dev.converge.shard.internal;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which members of a shard ring are alive, as one observer (the sharder) sees their Leases.
 *
 * <p>A member is alive while its Lease keeps changing: each time the observer sees a new
 * resourceVersion it notes the moment on its own monotonic clock, and counts the member out ({@link
 * #live}, {@link #expired}) once a full lease duration has passed on that clock without a change.
 * No two clocks are compared, so a member whose wall clock is off is judged the same as any other
 * (the {@code renewTime} it writes is for people). A Lease seen for the first time counts as
 * renewed at that moment: an observer that starts counts a dead member out one lease duration
 * later, never earlier. A deleted Lease (a member that left cleanly) is out at once.
 *
 * <p>Not thread-safe: one observing thread.
 */
public final class ShardMembers {

  private record Seen(
      String identity, String resourceVersion, long changedAt, long durationNanos) {}

  private final Map<String, Seen> byLease = new HashMap<>();

  /**
   * Takes in the ring's Leases as they are now.
   *
   * @param leases every Lease of the ring (a Lease missing from it is gone)
   * @param nowNanos the observer's monotonic time of the reading
   */
  public void observe(Collection<Lease> leases, long nowNanos) {
    Map<String, Seen> next = new HashMap<>();
    for (Lease lease : leases) {
      String name = lease.getMetadata().getName();
      String version = lease.getMetadata().getResourceVersion();
      String identity =
          lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null
              ? null
              : lease.getSpec().getHolderIdentity();
      if (identity == null || identity.isBlank()) {
        continue; // not a member's Lease (yet): nobody holds it
      }
      Integer seconds = lease.getSpec().getLeaseDurationSeconds();
      long duration = Duration.ofSeconds(seconds == null || seconds < 1 ? 1 : seconds).toNanos();
      Seen before = byLease.get(name);
      boolean changed = before == null || !Objects.equals(before.resourceVersion(), version);
      next.put(
          name, new Seen(identity, version, changed ? nowNanos : before.changedAt(), duration));
    }
    byLease.clear();
    byLease.putAll(next);
  }

  /**
   * The identities of the members alive at {@code nowNanos}.
   *
   * @param nowNanos the observer's monotonic time
   * @return the live members' identities, sorted
   */
  public SortedSet<String> live(long nowNanos) {
    SortedSet<String> live = new TreeSet<>();
    for (Seen seen : byLease.values()) {
      if (nowNanos - seen.changedAt() < seen.durationNanos()) {
        live.add(seen.identity());
      }
    }
    return live;
  }

  /**
   * The identities of every member whose Lease exists, expired or not: those that may still hold
   * objects. A member is out of this set only once its Lease is deleted (by itself when it leaves,
   * or by the sharder once it found the Lease {@linkplain #expired expired}), after which it can
   * never renew it again.
   *
   * @return the identities, sorted
   */
  public SortedSet<String> present() {
    SortedSet<String> present = new TreeSet<>();
    for (Seen seen : byLease.values()) {
      present.add(seen.identity());
    }
    return present;
  }

  /**
   * The Leases unchanged for a full lease duration at {@code nowNanos}, with the resourceVersion
   * seen: the sharder deletes each on that precondition, so that a member whose renewal reaches the
   * API server meanwhile keeps its Lease, and one that did not can never renew it.
   *
   * @param nowNanos the observer's monotonic time
   * @return Lease name to the resourceVersion last seen
   */
  public Map<String, String> expired(long nowNanos) {
    Map<String, String> expired = new HashMap<>();
    for (Map.Entry<String, Seen> e : byLease.entrySet()) {
      Seen seen = e.getValue();
      if (nowNanos - seen.changedAt() >= seen.durationNanos()) {
        expired.put(e.getKey(), seen.resourceVersion());
      }
    }
    return expired;
  }

  /**
   * How long until the first live member would be counted out without another change: when the
   * observer should look again at the latest.
   *
   * @param nowNanos the observer's monotonic time
   * @return nanoseconds until the earliest expiry; {@link Long#MAX_VALUE} with no live member
   */
  public long nanosUntilNextExpiry(long nowNanos) {
    long next = Long.MAX_VALUE;
    for (Seen seen : byLease.values()) {
      long left = seen.changedAt() + seen.durationNanos() - nowNanos;
      if (left > 0) {
        next = Math.min(next, left);
      }
    }
    return next;
  }
}
