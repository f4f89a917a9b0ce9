package dev.converge.faults;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The operators' Lease as the API server holds it, read by the suite's administrator every 200 ms
 * (directly, not through the operators' proxies): each distinct state (holder, transitions, renew
 * time) is kept. The suite judges leadership from this record, not from what the replicas say of
 * themselves.
 */
final class LeaseHistory implements AutoCloseable {

  /** One state of the Lease on the API server. */
  record State(
      String holder, int transitions, ZonedDateTime renewTime, int durationSeconds, long seenAt) {}

  /**
   * What the Lease did between two points of the run.
   *
   * @param holders the distinct holders, in order (consecutive repeats folded)
   * @param transitions {@code spec.leaseTransitions} at the end less at the start
   * @param longestRenewGap the longest time between two successive renewals recorded on the Lease
   *     (its {@code renewTime}s), whoever renewed
   * @param durationSeconds the Lease's {@code leaseDurationSeconds}
   */
  record Span(
      List<String> holders, int transitions, Duration longestRenewGap, int durationSeconds) {

    /** The holder changed, or the Lease went unrenewed longer than its duration (it lapsed). */
    boolean leadershipLost() {
      return holders.size() > 1 || longestRenewGap.toSeconds() >= durationSeconds;
    }

    @Override
    public String toString() {
      return "Lease holders "
          + String.join(" -> ", holders)
          + ", leaseTransitions +"
          + transitions
          + ", longest time unrenewed "
          + String.format("%.1f s", longestRenewGap.toMillis() / 1000.0)
          + " (lease "
          + durationSeconds
          + " s)";
    }
  }

  private final KubernetesClient admin;
  private final String namespace;
  private final List<State> states = new ArrayList<>();
  private final java.util.concurrent.ScheduledFuture<?> polling;
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "fault-suite-lease");
            t.setDaemon(true);
            return t;
          });

  LeaseHistory(KubernetesClient admin, String namespace) {
    this.admin = admin;
    this.namespace = namespace;
    polling = poller.scheduleWithFixedDelay(this::read, 0, 200, TimeUnit.MILLISECONDS);
  }

  private void read() {
    List<Lease> leases;
    try {
      leases = admin.leases().inNamespace(namespace).list().getItems();
    } catch (KubernetesClientException unavailable) {
      return; // the API server may be the fault; the Lease is read again in 200 ms
    }
    if (leases.size() != 1 || leases.get(0).getSpec() == null) {
      return;
    }
    LeaseSpec spec = leases.get(0).getSpec();
    State now =
        new State(
            Objects.toString(spec.getHolderIdentity(), ""),
            spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions(),
            spec.getRenewTime(),
            spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds(),
            System.nanoTime());
    synchronized (states) {
      State last = states.isEmpty() ? null : states.get(states.size() - 1);
      if (last == null
          || !last.holder().equals(now.holder())
          || last.transitions() != now.transitions()
          || !Objects.equals(last.renewTime(), now.renewTime())) {
        states.add(now);
      }
    }
  }

  /** A point of the run: the number of states recorded so far. */
  int mark() {
    synchronized (states) {
      return states.size();
    }
  }

  /** The holder now, or empty text when no Lease was read yet. */
  String holder() {
    synchronized (states) {
      return states.isEmpty() ? "" : states.get(states.size() - 1).holder();
    }
  }

  /** The Lease's record from the state current at {@code mark} to the latest. */
  Span since(int mark) {
    List<State> span;
    synchronized (states) {
      span = new ArrayList<>(states.subList(Math.max(0, mark - 1), states.size()));
    }
    List<String> holders = new ArrayList<>();
    Duration longest = Duration.ZERO;
    State previous = null;
    for (State s : span) {
      if (holders.isEmpty() || !holders.get(holders.size() - 1).equals(s.holder())) {
        holders.add(s.holder());
      }
      if (previous != null && previous.renewTime() != null && s.renewTime() != null) {
        Duration gap = Duration.between(previous.renewTime(), s.renewTime());
        if (gap.compareTo(longest) > 0) {
          longest = gap;
        }
      }
      previous = s;
    }
    int transitions =
        span.isEmpty() ? 0 : span.get(span.size() - 1).transitions() - span.get(0).transitions();
    int duration = span.isEmpty() ? 0 : span.get(span.size() - 1).durationSeconds();
    return new Span(holders, transitions, longest, duration);
  }

  /**
   * True when, after {@code mark}, the Lease was renewed at least twice by the same holder: a
   * leader holds it again.
   */
  boolean heldAgainSince(int mark) {
    synchronized (states) {
      if (states.size() < mark + 2) {
        return false;
      }
      State last = states.get(states.size() - 1);
      State before = states.get(states.size() - 2);
      return !last.holder().isEmpty()
          && last.holder().equals(before.holder())
          && states.size() - mark >= 2;
    }
  }

  @Override
  public void close() {
    polling.cancel(true);
    poller.shutdownNow();
  }
}
