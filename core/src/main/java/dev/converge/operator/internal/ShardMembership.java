package dev.converge.operator.internal;

import dev.converge.operator.LeaderElection;
import dev.converge.queue.internal.Ticker;
import dev.converge.shard.internal.ShardLabels;
import dev.converge.shard.internal.ShardLease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's membership of its operator's shard ring: its own Lease, renewed every retry period
 * through a client that gives up quickly, and the fence that Lease opens for this replica's writes.
 *
 * <p>Membership is lost for good when the fence closes (no renewal was accepted within the fence
 * window, shorter than the lease duration): the sharder may have given this replica's objects to
 * the others by then, and this replica's caches may still show them as its own. Rejoining would
 * need fresh caches; the replica stops reconciling and reports itself not live instead, so that it
 * is restarted.
 */
public final class ShardMembership {

  private static final Logger log = LoggerFactory.getLogger(ShardMembership.class);

  private final String operatorName;
  private final LeaderElection settings;
  private final ShardLabels labels;
  private final LeaseFence fence;
  private final KubernetesClient leaseClient;
  private final ShardLease lease;
  private final ScheduledExecutorService renewer;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean joined = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicReference<String> lost = new AtomicReference<>();
  private volatile Runnable onJoined = () -> {};
  private volatile Runnable onLost = () -> {};

  /**
   * A member not yet on the ring.
   *
   * @param operatorName the operator's name, for logs
   * @param settings the leader election's settings: the ring is named after its Lease, the member
   *     after its identity, and the shard Lease has its timings
   * @param client the operator's client, whose configuration the Lease's own client copies
   */
  public ShardMembership(String operatorName, LeaderElection settings, KubernetesClient client) {
    this.operatorName = operatorName;
    this.settings = settings;
    this.labels = ShardLabels.of(settings.leaseName());
    this.fence =
        new LeaseFence(
            Ticker.system(), LeaseFence.window(settings.leaseDuration(), settings.renewDeadline()));
    // A renewal opens the fence from the moment it was sent, however long the API server takes
    // to accept it: a slow renewal is as good as a quick one, so it may take up to half the renew
    // deadline (a busy API server answering in a second must not cost a member its share).
    this.leaseClient =
        LeaseElection.boundedClient(
            client,
            java.time.Duration.ofMillis(Math.max(500, settings.renewDeadline().toMillis() / 2)));
    this.lease =
        new ShardLease(
            leaseClient,
            settings.leaseNamespace(),
            settings.leaseName(),
            settings.identity(),
            settings.leaseDuration(),
            fence,
            Ticker.system(),
            Clock.systemUTC());
    this.renewer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "converge-" + operatorName + "-shard-lease");
              t.setDaemon(true);
              return t;
            });
  }

  /** The ring's labels. */
  public ShardLabels labels() {
    return labels;
  }

  /** The value of the shard label on this member's objects. */
  public String member() {
    return ShardLabels.value(settings.identity());
  }

  /** This member's identity. */
  public String identity() {
    return settings.identity();
  }

  /** The namespace of the ring's Leases. */
  public String namespace() {
    return settings.leaseNamespace();
  }

  /** The ring's name. */
  public String ring() {
    return settings.leaseName();
  }

  /** The fence this member's writes pass: open while its Lease is current. */
  public LeaseFence fence() {
    return fence;
  }

  /** Why membership was lost, once it was. */
  public Optional<String> lost() {
    return Optional.ofNullable(lost.get());
  }

  /**
   * Starts renewing.
   *
   * @param joined run once, after the first renewal the API server accepted
   * @param lostMembership run once, when the fence closed after the member had joined
   */
  public void start(Runnable joined, Runnable lostMembership) {
    this.onJoined = joined;
    this.onLost = lostMembership;
    started.set(true);
    long period = Math.max(100, settings.retryPeriod().toMillis());
    var unused = renewer.scheduleWithFixedDelay(this::renew, 0, period, TimeUnit.MILLISECONDS);
  }

  private void renew() {
    if (ended.get() || lost.get() != null) {
      return;
    }
    if (joined.get() && fence.remainingNanos() <= 0) {
      // Too late: the sharder may count this member out any moment, or has. A renewal now would
      // open the fence again over caches that may still show objects given away meanwhile.
      lose(
          "no renewal of its shard Lease was accepted within "
              + settings.renewDeadline().toSeconds()
              + " s");
      return;
    }
    try {
      lease.renew();
      if (joined.compareAndSet(false, true)) {
        log.info(
            "operator {}: joined shard ring {} as {} (Lease {}/{})",
            operatorName,
            ring(),
            member(),
            settings.leaseNamespace(),
            lease.leaseName());
        onJoined.run();
      }
    } catch (ShardLease.CountedOutException e) {
      lose(e.getMessage());
      return;
    } catch (RuntimeException e) {
      log.warn(
          "operator {}: renewing shard Lease {}/{} failed: {}",
          operatorName,
          settings.leaseNamespace(),
          lease.leaseName(),
          e.getCause() == null ? e.getMessage() : e.getMessage() + " (" + e.getCause() + ")");
    }
    if (joined.get() && fence.remainingNanos() <= 0 && !ended.get()) {
      lose(
          "no renewal of its shard Lease was accepted within "
              + settings.renewDeadline().toSeconds()
              + " s");
    }
  }

  private void lose(String reason) {
    String why =
        "left shard ring "
            + ring()
            + " ("
            + reason
            + "; Lease "
            + settings.leaseNamespace()
            + "/"
            + lease.leaseName()
            + "): its objects go to the other members. Restart the process to rejoin";
    if (!ended.get() && lost.compareAndSet(null, why)) {
      fence.closed();
      log.error("operator {}: {}", operatorName, why);
      try {
        onLost.run();
      } catch (RuntimeException e) {
        log.error("operator {}: stopping after the shard Lease was lost failed", operatorName, e);
      }
    }
  }

  /**
   * Stops renewing without deleting the Lease, for a replica some of whose reconciles did not end:
   * the others take its objects once the Lease expires, by when its fence has closed.
   */
  public void abandon() {
    if (ended.compareAndSet(false, true)) {
      renewer.shutdownNow();
      fence.closed();
      leaseClient.close();
      log.warn(
          "operator {}: some reconciles still run; shard Lease {}/{} is left to expire",
          operatorName,
          settings.leaseNamespace(),
          lease.leaseName());
    }
  }

  /**
   * Leaves the ring: no more renewals, the fence closes and the Lease is deleted, so that the
   * sharder gives this member's objects to the others at once. Call once no reconcile runs. A
   * failure to delete is logged: the Lease then expires after its duration.
   */
  public void leave() {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    renewer.shutdownNow();
    if (!started.get()) {
      // built and closed without running (a build step computing RBAC, a test): no Lease exists
      fence.closed();
      leaseClient.close();
      return;
    }
    try {
      renewer.awaitTermination(settings.retryPeriod().toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      lease.release();
      log.info("operator {}: left shard ring {}", operatorName, ring());
    } catch (RuntimeException e) {
      fence.closed();
      log.warn(
          "operator {}: could not delete shard Lease {}/{} ({}); it expires after its duration",
          operatorName,
          settings.leaseNamespace(),
          lease.leaseName(),
          e.toString());
    }
    leaseClient.close();
  }
}
