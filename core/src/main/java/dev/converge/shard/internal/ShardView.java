package dev.converge.shard.internal;

import dev.converge.queue.internal.Ticker;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shard ring as an onlooker sees it: the live members, judged from an informer on the ring's
 * Leases by the sharder's rule ({@link ShardMembers}, on the onlooker's own monotonic clock), and
 * the member the ring gives an object to. For code that must name an object's member without an API
 * call, such as a mutating webhook labelling an object at its creation.
 *
 * <p>It leaves out a member as soon as its Lease expired ({@link ShardMembers#live}); the sharder
 * keeps it on its ring until it has deleted that Lease ({@link ShardMembers#present}), moments
 * later while a sharder runs. A new object labelled in between goes to a live member at once, and
 * the sharder, should its ring still differ, moves it through the usual drain.
 *
 * <p>Each Lease event is taken in at once, so a renewal is dated when it arrives and a deleted
 * Lease's member is out from the next question on. Until the informer has listed, and while no
 * member is live, it names no member. Thread-safe.
 */
public final class ShardView implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ShardView.class);

  /** The live members a ring was last built over, and the ring. */
  private record Ring(SortedSet<String> live, ShardRing ring) {}

  private final String ring;
  private final String leaseNamespace;
  private final ShardLabels labels;
  private final Ticker ticker;
  private final ShardMembers members = new ShardMembers(); // guarded by itself
  private final SharedIndexInformer<Lease> leases;
  private volatile Ring current = new Ring(new TreeSet<>(), ShardRing.of(List.of()));
  private volatile boolean closed;

  /**
   * A view of {@code ring}, not started.
   *
   * @param client the client the Leases are watched with
   * @param leaseNamespace the namespace of the ring's Leases
   * @param ring the ring's name
   * @param ticker the monotonic clock liveness is judged on
   */
  public ShardView(KubernetesClient client, String leaseNamespace, String ring, Ticker ticker) {
    Objects.requireNonNull(client, "client");
    if (leaseNamespace == null || leaseNamespace.isBlank()) {
      throw new IllegalArgumentException("shard lease namespace must not be blank");
    }
    this.labels = ShardLabels.of(ring);
    this.ring = ring;
    this.leaseNamespace = leaseNamespace;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.leases =
        client
            .leases()
            .inNamespace(leaseNamespace)
            .withLabel(ShardLease.RING_LABEL, ring)
            .runnableInformer(0);
    leases.exceptionHandler(
        (started, failure) -> {
          if (closed) {
            return false;
          }
          log.warn(
              "shard view of ring {}: list/watch of the Leases in namespace {} failed ({}): {};"
                  + " retrying",
              ring,
              leaseNamespace,
              started ? "watching" : "listing",
              failure.toString());
          return true;
        });
    leases.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Lease lease) {
            observe();
          }

          @Override
          public void onUpdate(Lease before, Lease after) {
            observe();
          }

          @Override
          public void onDelete(Lease lease, boolean finalStateUnknown) {
            observe();
          }
        });
  }

  /**
   * Starts watching the Leases; returns at once, without waiting for the first list.
   *
   * @return this view
   */
  public ShardView start() {
    leases
        .start()
        .whenComplete(
            (ignored, failure) -> {
              if (failure != null && !closed) {
                log.warn(
                    "shard view of ring {}: the informer of the Leases in namespace {} stopped: {}",
                    ring,
                    leaseNamespace,
                    failure.toString());
              }
            });
    return this;
  }

  private void observe() {
    synchronized (members) {
      members.observe(leases.getStore().list(), ticker.nanoTime());
    }
  }

  /**
   * The live members now.
   *
   * @return their identities, sorted; empty before the informer has listed
   */
  public SortedSet<String> live() {
    synchronized (members) {
      return members.live(ticker.nanoTime());
    }
  }

  /**
   * The labels that give the object {@code namespace/name} to its member on the ring over the live
   * members: {@code {shard.converge.dev/<ring>: <member>}}. No API call.
   *
   * @param namespace the object's namespace; null or empty when cluster-scoped
   * @param name the object's name
   * @return the label; empty when no member is live or the name is not known yet
   */
  public Map<String, String> labelsFor(String namespace, String name) {
    if (name == null || name.isEmpty()) {
      return Map.of(); // generateName: the name is chosen after admission
    }
    SortedSet<String> live = live();
    Ring ringNow = current;
    if (!ringNow.live().equals(live)) {
      ringNow = new Ring(live, ShardRing.of(live));
      current = ringNow;
    }
    return ringNow
        .ring()
        .ownerOf(namespace, name)
        .map(member -> Map.of(labels.shardKey(), ShardLabels.value(member)))
        .orElse(Map.of());
  }

  /**
   * The ring's label keys.
   *
   * @return the keys this view's labels use
   */
  public ShardLabels labels() {
    return labels;
  }

  /** Stops the informer; a second call does nothing. */
  @Override
  public void close() {
    closed = true;
    leases.stop();
  }
}
