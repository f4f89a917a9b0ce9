package dev.converge.testing;

import dev.converge.testing.internal.ExistingCluster;
import dev.converge.testing.internal.ProcessCluster;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Kubernetes control plane for tests and demos.
 *
 * <p>{@link #start()} launches etcd, kube-apiserver (RBAC on, generated certificates),
 * kube-controller-manager (deployments, replica sets, garbage collector, namespaces, ...),
 * kube-scheduler and kwok with one fake Ready node on free loopback ports. With {@code
 * USE_EXISTING_CLUSTER=true} it uses the cluster of the current kubeconfig instead and starts
 * nothing, as envtest does.
 */
public interface LocalCluster extends AutoCloseable {

  /**
   * Starts a local control plane, or connects to the kubeconfig's cluster when asked to.
   *
   * @return the running cluster; closing it stops what this call started
   */
  static LocalCluster start() {
    if (Boolean.parseBoolean(System.getenv("USE_EXISTING_CLUSTER"))) {
      return ExistingCluster.fromKubeconfig();
    }
    return ProcessCluster.start(ControlPlaneBinaries.locate());
  }

  /** {@return the client configuration of a cluster administrator} */
  Config config();

  /** {@return a kubeconfig file for the administrator, usable by kubectl and by the operator} */
  Path kubeconfig();

  /** {@return how long {@link #start()} took until every component was ready} */
  Duration startupTime();

  /**
   * {@return a client builder already holding {@link #config()}}; add interceptors before {@code
   * build()}.
   */
  default KubernetesClientBuilder clientBuilder() {
    return new KubernetesClientBuilder().withConfig(new ConfigBuilder(config()).build());
  }

  /** {@return a new administrator client}; the caller closes it. */
  default KubernetesClient newClient() {
    return clientBuilder().build();
  }

  /**
   * A client that impersonates {@code user} in {@code groups}, for checking RBAC rules: the API
   * server authorizes its requests as that user. The caller closes it.
   *
   * @param user the user name the requests are authorized as
   * @param groups the groups of that user, if any
   * @return a new impersonating client
   */
  default KubernetesClient clientAs(String user, String... groups) {
    Config impersonating =
        new ConfigBuilder(config())
            .withImpersonateUsername(user)
            .withImpersonateGroups(groups)
            .build();
    return new KubernetesClientBuilder().withConfig(impersonating).build();
  }

  /**
   * {@return fault injection (restarts of kube-apiserver and etcd, etcd compaction, a proxy that
   * cuts or stalls connections)}; empty for an existing cluster, whose components this process does
   * not own.
   */
  default java.util.Optional<ClusterFaults> faults() {
    return java.util.Optional.empty();
  }

  /**
   * {@return a client configuration like {@link #config()} that reaches the API server through
   * {@code proxy}}, keeping TLS verification on.
   *
   * @param proxy a proxy from {@link ClusterFaults#proxyToApiServer()}
   */
  default Config configVia(TcpProxy proxy) {
    return new ConfigBuilder(config()).withMasterUrl("https://127.0.0.1:" + proxy.port()).build();
  }

  /**
   * {@return kube-apiserver's audit log} of every write (JSON lines, Metadata level: who, with
   * which user
   *
   * <p>agent, what, the response code and when), when the cluster was started with the system
   * property {@code converge.cluster.audit=true} (or {@code CONVERGE_CLUSTER_AUDIT=true}); empty
   * otherwise and for an existing cluster. Read it with {@link AuditLog}: it is the API server's
   * own record of what each client wrote, independent of what the clients say about themselves.
   */
  default java.util.Optional<Path> auditLog() {
    return java.util.Optional.empty();
  }

  /** Stops every component this cluster started and removes its files. */
  @Override
  void close();
}
