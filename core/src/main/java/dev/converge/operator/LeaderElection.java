package dev.converge.operator;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease: only the holder reconciles, the others
 * keep their caches warm and take over when the holder stops renewing.
 *
 * @param leaseNamespace namespace of the Lease
 * @param leaseName name of the Lease, shared by every replica of the operator
 * @param identity this replica's identity (unique among replicas; the pod name is a good choice)
 * @param leaseDuration how long a lease is valid after its last renewal
 * @param renewDeadline how long the leader keeps trying to renew before giving up leadership
 * @param retryPeriod how often candidates try to acquire and the leader renews
 */
public record LeaderElection(
    String leaseNamespace,
    String leaseName,
    String identity,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {

  /** Default validity of the Lease after its last renewal: 15 seconds. */
  public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);

  /** Default time the leader keeps trying to renew before it gives up leadership: 10 seconds. */
  public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);

  /** Default interval of acquire and renew attempts: 2 seconds. */
  public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

  /**
   * Checks the settings. The three durations must be ordered so that a leader gives up before its
   * Lease expires, which is what keeps two replicas from leading at once.
   *
   * @param leaseNamespace namespace of the Lease
   * @param leaseName name of the Lease
   * @param identity this replica's identity
   * @param leaseDuration how long a lease is valid after its last renewal
   * @param renewDeadline how long the leader keeps trying to renew; shorter than {@code
   *     leaseDuration}
   * @param retryPeriod how often candidates try to acquire and the leader renews; shorter than
   *     {@code renewDeadline}
   * @throws IllegalArgumentException when a name or the identity is blank, or unless {@code
   *     retryPeriod < renewDeadline < leaseDuration}
   * @throws NullPointerException when a duration is null
   */
  public LeaderElection {
    requireText(leaseNamespace, "leaseNamespace");
    requireText(leaseName, "leaseName");
    requireText(identity, "identity");
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException(
          "leader election: renewDeadline ("
              + renewDeadline
              + ") must be shorter than leaseDuration ("
              + leaseDuration
              + ")");
    }
    if (retryPeriod.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException(
          "leader election: retryPeriod ("
              + retryPeriod
              + ") must be shorter than renewDeadline ("
              + renewDeadline
              + ")");
    }
  }

  /**
   * Leader election on Lease {@code namespace/name} with the defaults (15 s lease, 10 s renew
   * deadline, 2 s retry) and an identity made of the host name and a random suffix.
   *
   * @param namespace the Lease's namespace, usually the operator's own
   * @param name the Lease's name, the same for every replica
   * @return the settings
   * @throws IllegalArgumentException when the namespace or the name is blank
   */
  public static LeaderElection onLease(String namespace, String name) {
    return new LeaderElection(
        namespace,
        name,
        defaultIdentity(),
        DEFAULT_LEASE_DURATION,
        DEFAULT_RENEW_DEADLINE,
        DEFAULT_RETRY_PERIOD);
  }

  /**
   * These settings with another identity, e.g. the pod name passed through the downward API.
   *
   * @param newIdentity this replica's identity, unique among replicas
   * @return new settings; these are unchanged
   * @throws IllegalArgumentException when the identity is blank
   */
  public LeaderElection withIdentity(String newIdentity) {
    return new LeaderElection(
        leaseNamespace, leaseName, newIdentity, leaseDuration, renewDeadline, retryPeriod);
  }

  /**
   * These settings with other timings: shorter ones fail over faster and cost more requests.
   *
   * @param lease how long a lease is valid after its last renewal
   * @param renew how long the leader keeps trying to renew; shorter than {@code lease}
   * @param retry how often candidates try to acquire and the leader renews; shorter than {@code
   *     renew}
   * @return new settings; these are unchanged
   * @throws IllegalArgumentException unless {@code retry < renew < lease}
   */
  public LeaderElection withTimings(Duration lease, Duration renew, Duration retry) {
    return new LeaderElection(leaseNamespace, leaseName, identity, lease, renew, retry);
  }

  private static String defaultIdentity() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "operator"; // the random suffix below keeps identities unique anyway
      }
    }
    return host + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static void requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("leader election: " + what + " must not be blank");
    }
  }
}
