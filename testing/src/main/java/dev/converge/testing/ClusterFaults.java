package dev.converge.testing;

/**
 * Real faults of a local control plane, for tests of what an operator does when the cluster
 * misbehaves. Each method returns once the fault has happened and, for restarts, once the component
 * serves again.
 */
public interface ClusterFaults {

  /** Kills kube-apiserver (SIGKILL) and starts it again; returns when it is ready. */
  void restartApiServer();

  /** Kills etcd (SIGKILL) and starts it again on the same data; returns when it is healthy. */
  void restartEtcd();

  /**
   * Compacts etcd's history up to its current revision, so that every watch resuming from an older
   * resourceVersion gets 410 Gone and its client must list again.
   *
   * @return the revision compacted to
   */
  long compactEtcd();

  /**
   * {@return etcd's client URL (plain HTTP on loopback)}: its {@code /metrics} and {@code /health}
   * let a test see etcd's own account of a fault, such as its process start time after a restart.
   */
  java.net.URI etcdUrl();

  /**
   * {@return a new proxy in front of the API server}; the caller closes it. See {@link TcpProxy}.
   */
  TcpProxy proxyToApiServer();
}
