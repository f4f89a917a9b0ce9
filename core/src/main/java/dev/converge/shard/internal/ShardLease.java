package dev.converge.shard.internal;

import dev.converge.operator.internal.LeaseFence;
import dev.converge.queue.internal.Ticker;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One replica's membership of a shard ring: a {@code coordination.k8s.io/v1} Lease of its own,
 * labelled with the ring's name, that it renews while it is alive.
 *
 * <p>The Lease is named after the ring and the replica ({@code <ring>-<identity>}, lower-cased,
 * characters a Lease name cannot hold replaced by {@code -}) and holds the replica's identity and
 * the lease duration. A renewal is an update with the Lease's resourceVersion: a renewal that
 * conflicts (someone else wrote the Lease) re-reads it and is sent once more. Every renewal the API
 * server accepts opens this replica's {@link LeaseFence} for a window shorter than the lease
 * duration, so a replica that stops renewing stops writing before the others count it out.
 *
 * <p>Not thread-safe: one renewing thread per replica.
 */
public final class ShardLease {

  /** The label on each member's Lease whose value is the ring's name. */
  public static final String RING_LABEL = "shard.converge.dev/ring";

  private final KubernetesClient client;
  private final String namespace;
  private final String ring;
  private final String identity;
  private final Duration leaseDuration;
  private final LeaseFence fence;
  private final Ticker ticker;
  private final Clock clock;
  private boolean created;

  /** The member's Lease was deleted after it joined: it is out of the ring for good. */
  public static final class CountedOutException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    CountedOutException(String message) {
      super(message);
    }
  }

  /**
   * A member of {@code ring} that is not yet on it: {@link #renew()} creates the Lease.
   *
   * @param client the client the Lease is written with (not the fenced one)
   * @param namespace the namespace of the ring's Leases
   * @param ring the ring's name, the same for every replica of one operator
   * @param identity this replica's identity, unique among the replicas
   * @param leaseDuration how long the others count this replica in after its last renewal
   * @param fence opened by each accepted renewal
   * @param ticker the monotonic clock the fence is on
   * @param clock the wall clock written into the Lease ({@code renewTime}), for people reading it
   */
  public ShardLease(
      KubernetesClient client,
      String namespace,
      String ring,
      String identity,
      Duration leaseDuration,
      LeaseFence fence,
      Ticker ticker,
      Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = requireText(namespace, "namespace");
    this.ring = requireText(ring, "ring");
    this.identity = requireText(identity, "identity");
    if (leaseDuration.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "shard lease duration must be at least 1 s, not " + leaseDuration);
    }
    this.leaseDuration = leaseDuration;
    this.fence = Objects.requireNonNull(fence, "fence");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static String requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("shard " + what + " must not be blank");
    }
    return value;
  }

  /**
   * The name of {@code identity}'s Lease on {@code ring}: a valid object name for any identity.
   *
   * @param ring the ring's name
   * @param identity the replica's identity
   * @return {@code <ring>-<identity>}, lower-cased, other characters than letters, digits, {@code
   *     -} and {@code .} replaced by {@code -}, at most 253 characters
   */
  public static String leaseName(String ring, String identity) {
    String raw = (ring + "-" + identity).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
    String trimmed = raw.length() > 253 ? raw.substring(0, 253) : raw;
    return trimmed.replaceAll("^[.-]+", "").replaceAll("[.-]+$", "");
  }

  /**
   * This replica's Lease name.
   *
   * @return the name of the Lease {@link #renew()} writes
   */
  public String leaseName() {
    return leaseName(ring, identity);
  }

  /**
   * Writes the Lease anew: creates it the first time, else moves its {@code renewTime} on. On
   * success the fence is open for another window from the moment the request was sent.
   *
   * @throws KubernetesClientException when the API server refuses, or is not reached; the fence
   *     then closes by itself when its window runs out
   * @throws CountedOutException when the Lease this member created is gone: the fence is closed and
   *     stays so
   */
  public void renew() {
    for (int attempt = 1; ; attempt++) {
      long sentAt = ticker.nanoTime();
      Lease current = client.leases().inNamespace(namespace).withName(leaseName()).get();
      try {
        if (current == null) {
          if (created) {
            // Deleted by the sharder, which found it expired, or by someone else: the member's
            // objects may be with others now. Creating it again would let this replica write.
            fence.closed();
            throw new CountedOutException(
                "shard Lease "
                    + namespace
                    + "/"
                    + leaseName()
                    + " was deleted: this member was counted out of ring "
                    + ring);
          }
          client.leases().inNamespace(namespace).resource(fresh()).create();
          created = true;
        } else {
          client.leases().inNamespace(namespace).resource(renewed(current)).update();
        }
        fence.renewed(sentAt);
        fence.leading(); // a member holds its own Lease from its first accepted write on
        return;
      } catch (KubernetesClientException e) {
        // 409: created or written by someone else meanwhile; read it again, once
        if (e.getCode() != 409 || attempt == 2) {
          throw e;
        }
      }
    }
  }

  /**
   * Deletes this replica's Lease, so that the ring counts it out at once rather than after the
   * lease duration, and closes the fence. A Lease already gone is not an error.
   */
  public void release() {
    fence.closed();
    client.leases().inNamespace(namespace).withName(leaseName()).delete();
  }

  private Lease fresh() {
    ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(leaseName())
        .withNamespace(namespace)
        .addToLabels(RING_LABEL, ring)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(identity)
        .withLeaseDurationSeconds((int) leaseDuration.toSeconds())
        .withAcquireTime(now)
        .withRenewTime(now)
        .endSpec()
        .build();
  }

  private Lease renewed(Lease current) {
    ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
    return new LeaseBuilder(current)
        .editMetadata()
        .addToLabels(RING_LABEL, ring)
        .endMetadata()
        .editSpec()
        .withHolderIdentity(identity)
        .withLeaseDurationSeconds((int) leaseDuration.toSeconds())
        .withRenewTime(now)
        .endSpec()
        .build();
  }

  /**
   * The Leases of {@code ring}'s members, as the API server has them now.
   *
   * @param client the client to list with
   * @param namespace the namespace of the ring's Leases
   * @param ring the ring's name
   * @return the Leases labelled with the ring, live or not
   */
  public static List<Lease> list(KubernetesClient client, String namespace, String ring) {
    return client.leases().inNamespace(namespace).withLabel(RING_LABEL, ring).list().getItems();
  }
}
