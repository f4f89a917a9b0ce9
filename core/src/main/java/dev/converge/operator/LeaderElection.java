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

  public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
  public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

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

  public LeaderElection withIdentity(String newIdentity) {
    return new LeaderElection(
        leaseNamespace, leaseName, newIdentity, leaseDuration, renewDeadline, retryPeriod);
  }

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
