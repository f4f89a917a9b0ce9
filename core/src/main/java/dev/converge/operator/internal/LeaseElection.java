package dev.converge.operator.internal;

import dev.converge.client.Clients;
import dev.converge.operator.LeaderElection;
import dev.converge.queue.internal.Ticker;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One operator's part in a leader election on a Lease: the elector, the client it renews through,
 * and the {@link LeaseFence} its accepted renewals open. The operator keeps what leading means (its
 * state, its workers); this class only takes part in the election, gives up, and releases.
 */
public final class LeaseElection {

  private static final Logger log = LoggerFactory.getLogger(LeaseElection.class);

  private final String operatorName;
  private final LeaderElection settings;
  private final KubernetesClient client;
  private final LeaseFence fence;
  private final AtomicReference<String> leader = new AtomicReference<>();
  private final AtomicReference<String> failure = new AtomicReference<>();
  private volatile KubernetesClient electionClient;
  private volatile LeaderElector elector;
  private volatile CompletableFuture<?> running;

  /**
   * An election not yet joined.
   *
   * @param operatorName the operator's name, for logs and as the election's name
   * @param settings the Lease, the identity and the timings
   * @param client the operator's client, whose configuration the election's own client copies
   */
  public LeaseElection(String operatorName, LeaderElection settings, KubernetesClient client) {
    this.operatorName = operatorName;
    this.settings = settings;
    this.client = client;
    this.fence =
        new LeaseFence(
            Ticker.system(), LeaseFence.window(settings.leaseDuration(), settings.renewDeadline()));
  }

  /** The fence every write of this instance passes; open while this instance leads. */
  public LeaseFence fence() {
    return fence;
  }

  /** The Lease, identity and timings. */
  public LeaderElection settings() {
    return settings;
  }

  /** The identity of the current leader, when one is known. */
  public Optional<String> leader() {
    return Optional.ofNullable(leader.get());
  }

  /** Why the election ended with an error, if it did. */
  public Optional<String> failure() {
    return Optional.ofNullable(failure.get());
  }

  /**
   * Stands for the Lease, or stands again after a loss: a previous round still running is cancelled
   * first. The callbacks run on the elector's threads.
   *
   * @param startedLeading run when this instance took the Lease
   * @param stoppedLeading run when this instance lost it (or could not renew it in time)
   * @param stopped whether the operator is stopping, when an error of the elector is not one
   */
  public synchronized void join(
      Runnable startedLeading, Runnable stoppedLeading, BooleanSupplier stopped) {
    CompletableFuture<?> previous = running;
    if (previous != null) {
      previous.cancel(true);
    }
    if (electionClient == null) {
      electionClient = boundedClient(client, settings);
    }
    log.info(
        "operator {}: standing by for Lease {}/{} as {}",
        operatorName,
        settings.leaseNamespace(),
        settings.leaseName(),
        settings.identity());
    LeaderElector started =
        electionClient
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(operatorName)
                    .withLock(
                        new FencingLeaseLock(
                            settings.leaseNamespace(),
                            settings.leaseName(),
                            settings.identity(),
                            fence,
                            Ticker.system()))
                    .withLeaseDuration(settings.leaseDuration())
                    .withRenewDeadline(settings.renewDeadline())
                    .withRetryPeriod(settings.retryPeriod())
                    // released by release() only, once no reconcile of this instance runs
                    .withLeaderCallbacks(
                        new LeaderCallbacks(startedLeading, stoppedLeading, leader::set))
                    .build())
            .build();
    elector = started;
    CompletableFuture<?> round = started.start();
    running = round;
    round.exceptionally(
        t -> {
          if (!(t instanceof CancellationException) && !stopped.getAsBoolean()) {
            failure.set("leader election ended with an error: " + t);
            log.error(
                "operator {}: leader election for Lease {}/{} ended with an error",
                operatorName,
                settings.leaseNamespace(),
                settings.leaseName(),
                t);
          }
          return null;
        });
  }

  /** Stops taking part: no more acquisitions or renewals. */
  public void cancel() {
    CompletableFuture<?> round = running;
    if (round != null) {
      round.cancel(true);
    }
  }

  /**
   * Gives the Lease up so that a standby takes over at once instead of after the lease duration.
   * Call only once no reconcile of this instance runs any more. A failure is logged: the Lease then
   * expires after its duration.
   */
  public void release() {
    LeaderElector current = elector;
    if (current == null) {
      return;
    }
    try {
      if (current.release()) {
        log.info("operator {}: released the leader Lease", operatorName);
      }
    } catch (RuntimeException e) {
      log.warn(
          "operator {}: could not release the leader Lease ({}); it expires after its duration",
          operatorName,
          e.toString());
    }
  }

  /** Closes the election's own client. */
  public void close() {
    KubernetesClient own = electionClient;
    if (own != null) {
      own.close();
    }
  }

  /**
   * The Lease is renewed through a client of its own that never retries and gives up on a request
   * after half the retry period: fabric8's retries would hold one renewal for up to about 19 s, far
   * past the renew deadline, and a standby could take the Lease while this instance still believes
   * it leads. Bounded this way, a leader that cannot renew notices within renewDeadline plus one
   * retry period, before the lease duration runs out for the others.
   */
  static KubernetesClient boundedClient(KubernetesClient client, LeaderElection le) {
    return boundedClient(client, Duration.ofMillis(Math.max(200, le.retryPeriod().toMillis() / 2)));
  }

  /**
   * A client like {@code client} that never retries and gives up on a request after {@code limit}.
   */
  static KubernetesClient boundedClient(KubernetesClient client, Duration limit) {
    int timeout = (int) limit.toMillis();
    Config bounded =
        new ConfigBuilder(client.getConfiguration())
            .withRequestRetryBackoffLimit(0)
            .withRequestTimeout(timeout)
            .withConnectionTimeout(timeout)
            .build();
    return Clients.builder().withConfig(bounded).build();
  }
}
