package dev.converge.operator.internal;

import dev.converge.client.Clients;
import dev.converge.queue.internal.Ticker;
import dev.converge.shard.internal.Sharder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica of a sharded operator: its membership of the ring, the label its caches select on,
 * and the sharder it runs while it leads the operator's Lease.
 *
 * <p>Metrics, tagged {@code ring} and {@code member}: {@code converge.shard.objects} (primaries
 * this replica holds now), {@code converge.shard.handovers} (objects it handed over). While it runs
 * the sharder, tagged {@code ring}: {@code converge.sharder.members}, {@code
 * converge.sharder.imbalance} ((largest share - smallest) / mean), {@code
 * converge.sharder.assignments}, {@code converge.sharder.drains}, {@code converge.sharder.moves}
 * and the timer {@code converge.sharder.handover} (drain asked to object reassigned).
 */
public final class ShardedReplica {

  private static final Logger log = LoggerFactory.getLogger(ShardedReplica.class);

  /** Imbalance above which health names the ring as unbalanced. */
  static final double UNBALANCED = 0.3;

  private final String operatorName;
  private final ShardMembership membership;
  private final ShardShare share;
  private final LeaseFence leaderFence;
  private final KubernetesClient sharderClient;
  private final SharedInformers informers;
  private final Set<String> namespaces;
  private final List<Class<? extends HasMetadata>> primaries = new ArrayList<>();
  private final Timer handOvers;
  private volatile Sharder sharder;

  /**
   * Selects this replica's share in {@code informers}; nothing runs until {@link #start}.
   *
   * @param operatorName the operator's name, for logs
   * @param membership this replica's membership of the ring
   * @param share the kinds cached by the shard label
   * @param client the operator's client; the sharder writes through a copy fenced on the leader
   *     Lease
   * @param leaderFence the fence of the operator's leader Lease
   * @param informers the operator's informers, not started
   * @param namespaces the watched namespaces, empty for all
   * @param registry where the metrics go
   */
  @SuppressWarnings("unchecked")
  public ShardedReplica(
      String operatorName,
      ShardMembership membership,
      ShardShare share,
      KubernetesClient client,
      LeaseFence leaderFence,
      SharedInformers informers,
      Set<String> namespaces,
      MeterRegistry registry) {
    this.operatorName = operatorName;
    this.membership = membership;
    this.share = share;
    this.leaderFence = leaderFence;
    this.sharderClient = sharderClient(client, leaderFence);
    this.informers = informers;
    this.namespaces = Set.copyOf(namespaces);
    for (Class<?> kind : share.selected()) {
      informers.select(
          (Class<? extends HasMetadata>) kind, membership.labels().shardKey(), share.member());
    }
    for (Class<?> kind : share.primaries()) {
      primaries.add((Class<? extends HasMetadata>) kind);
    }
    Tags tags = Tags.of("ring", membership.ring(), "member", share.member());
    Gauge.builder("converge.shard.objects", this, ShardedReplica::objects)
        .description("Primary objects this replica reconciles now")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("converge.shard.handovers", share.handOvers(), c -> c.get())
        .description("Objects this replica handed over to another member")
        .tags(tags)
        .register(registry);
    Tags ring = Tags.of("ring", membership.ring());
    Gauge.builder(
            "converge.sharder.members", this, r -> r.sharderFigure(s -> s.liveMembers().size()))
        .description("Live members of the ring, as the sharder sees them (NaN unless it runs here)")
        .tags(ring)
        .register(registry);
    Gauge.builder("converge.sharder.imbalance", this, r -> r.sharderFigure(Sharder::imbalance))
        .description("(largest share - smallest share) / mean share over the live members")
        .tags(ring)
        .register(registry);
    Gauge.builder("converge.sharder.assignments", this, r -> r.sharderFigure(Sharder::assigned))
        .description("Objects the sharder labelled for a member, since it started here")
        .tags(ring)
        .register(registry);
    Gauge.builder("converge.sharder.drains", this, r -> r.sharderFigure(Sharder::drainsRequested))
        .description("Hand-overs the sharder asked for, since it started here")
        .tags(ring)
        .register(registry);
    Gauge.builder("converge.sharder.moves", this, r -> r.sharderFigure(Sharder::moved))
        .description("Objects moved to another member after a hand-over, since it started here")
        .tags(ring)
        .register(registry);
    this.handOvers =
        Timer.builder("converge.sharder.handover")
            .description("Hand-overs the sharder completed here: drain asked to object reassigned")
            .tags(ring)
            .register(registry);
  }

  /**
   * The sharder's own client: fenced on the leader Lease, and with {@code sharder} appended to the
   * user agent, so that the API server's audit log tells its label writes from the replica's.
   */
  private static KubernetesClient sharderClient(KubernetesClient client, LeaseFence fence) {
    Config config = client.getConfiguration();
    if (config == null) {
      return FencedClient.of(client, fence);
    }
    Config own = new ConfigBuilder(config).build();
    String agent = config.getUserAgent();
    own.setUserAgent((agent == null || agent.isBlank() ? "converge" : agent) + " sharder");
    KubernetesClient labelled =
        Clients.builder()
            .withConfig(own)
            .withKubernetesSerialization(client.getKubernetesSerialization())
            .build();
    KubernetesClient fenced = FencedClient.of(labelled, fence);
    labelled.close(); // the fenced client has connections of its own, built from the same config
    return fenced;
  }

  private double objects() {
    long count = 0;
    for (Class<? extends HasMetadata> kind : primaries) {
      count += informers.size(kind);
    }
    return count;
  }

  private double sharderFigure(java.util.function.ToDoubleFunction<Sharder> figure) {
    Sharder running = sharder;
    return running == null ? Double.NaN : figure.applyAsDouble(running);
  }

  /**
   * Starts renewing this replica's shard Lease.
   *
   * @param joined run once the first renewal was accepted: the replica may reconcile
   * @param lost run when the Lease ran out: the replica must stop
   */
  public void start(Runnable joined, Runnable lost) {
    membership.start(joined, lost);
  }

  /** This replica leads the operator's Lease: it runs the sharder. */
  public synchronized void startedLeading() {
    leaderFence.leading();
    if (sharder != null || membership.lost().isPresent()) {
      return;
    }
    Sharder started =
        new Sharder(
            sharderClient,
            membership.namespace(),
            membership.ring(),
            primaries,
            namespaces,
            Ticker.system());
    started.onHandOver(handOvers::record);
    sharder = started;
    log.info("operator {}: running the sharder of ring {}", operatorName, membership.ring());
    started.start();
  }

  /**
   * This replica lost the operator's Lease: the sharder stops, and the replica stands again on a
   * thread of its own (the elector's callback must return first).
   *
   * @param rejoin stands for the Lease again
   */
  public void stoppedLeading(Runnable rejoin) {
    leaderFence.closed();
    stopSharder();
    Thread again = new Thread(rejoin, "converge-" + operatorName + "-sharder-rejoin");
    again.setDaemon(true);
    again.start();
  }

  /** Stops the sharder if it runs here. */
  public synchronized void stopSharder() {
    Sharder running = sharder;
    sharder = null;
    if (running != null) {
      running.close();
      log.info("operator {}: stopped the sharder of ring {}", operatorName, membership.ring());
    }
  }

  /**
   * Leaves the ring at shutdown.
   *
   * @param workersEnded whether every reconcile of this replica has ended; if not, the Lease is
   *     left to expire, so that nobody else reconciles its objects beside them
   */
  public void stop(boolean workersEnded) {
    stopSharder();
    leaderFence.closed();
    if (workersEnded) {
      membership.leave();
    } else {
      membership.abandon();
    }
    sharderClient.close();
  }

  /** Why this replica's membership was lost, once it was. */
  public Optional<String> lost() {
    return membership.lost();
  }

  /** What health reports about the ring: no share, an unbalanced ring. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (informers.hasSynced() && objects() == 0) {
      problems.add(
          "shard member "
              + share.member()
              + " of ring "
              + membership.ring()
              + " has no objects assigned");
    }
    Sharder running = sharder;
    if (running != null && running.liveMembers().size() > 1 && running.imbalance() > UNBALANCED) {
      problems.add(
          "shard ring "
              + membership.ring()
              + " is unbalanced: "
              + running.assignments()
              + " objects per member");
    }
    return problems;
  }
}
