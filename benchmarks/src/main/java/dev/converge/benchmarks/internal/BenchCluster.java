package dev.converge.benchmarks.internal;

import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.testing.KwokNode;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A local control plane made ready for one benchmark run: the CRD installed, enough kwok nodes for
 * the pods, and the measured client's identity with its flow schemas (see {@link
 * ClientFlowSchemas}).
 */
public final class BenchCluster implements AutoCloseable {

  /** Pods one fake node takes. */
  public static final int PODS_PER_NODE = 250;

  private final LocalCluster cluster;
  private final KubernetesClient admin;
  private final ClientFlowSchemas schemas;
  private final Path clientKubeconfig;

  private BenchCluster(
      LocalCluster cluster,
      KubernetesClient admin,
      ClientFlowSchemas schemas,
      Path clientKubeconfig) {
    this.cluster = cluster;
    this.admin = admin;
    this.schemas = schemas;
    this.clientKubeconfig = clientKubeconfig;
  }

  /**
   * Starts the control plane and prepares it.
   *
   * @param crd the CRD file of the operator under test; empty for the example's AppDeployment CRD
   * @param pods the most pods that will run at once (one kwok node per {@link #PODS_PER_NODE})
   * @param workDir where the measured client's kubeconfig is written
   */
  public static BenchCluster start(Optional<Path> crd, int pods, Path workDir) {
    LocalCluster cluster = LocalCluster.start();
    KubernetesClient admin = cluster.clientBuilder().build();
    try {
      installCrd(admin, crd);
      addNodes(admin, (pods + PODS_PER_NODE - 1) / PODS_PER_NODE);
      ClientFlowSchemas schemas = ClientFlowSchemas.install(admin);
      Path kubeconfig = tokenKubeconfig(admin, workDir);
      BenchCluster bench = new BenchCluster(cluster, admin, schemas, kubeconfig);
      bench.awaitClassification();
      return bench;
    } catch (RuntimeException e) {
      admin.close();
      cluster.close();
      throw e;
    }
  }

  public KubernetesClient admin() {
    return admin;
  }

  public LocalCluster cluster() {
    return cluster;
  }

  /** A kubeconfig with the token of {@link ClientFlowSchemas#SERVICE_ACCOUNT}. */
  public Path clientKubeconfig() {
    return clientKubeconfig;
  }

  /**
   * A new client with the token of {@link ClientFlowSchemas#SERVICE_ACCOUNT}; the caller closes it.
   */
  public KubernetesClient newMeasuredClient() {
    return new io.fabric8.kubernetes.client.KubernetesClientBuilder()
        .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(read(clientKubeconfig)))
        .build();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  public ApiServerMetrics metrics() {
    return new ApiServerMetrics(admin, schemas);
  }

  /** Flow schemas take effect once the server's configuration controller has read them. */
  private void awaitClassification() {
    ApiServerMetrics metrics = metrics();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try (KubernetesClient client = newMeasuredClient()) {
      while (true) {
        client.namespaces().withName("default").get();
        if (metrics.snapshot().client().getOrDefault(new RequestKey("get", "namespaces"), 0L) > 0) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "kube-apiserver did not classify requests of user "
                  + ClientFlowSchemas.SERVICE_ACCOUNT
                  + " by the benchmark's FlowSchemas within 60 s; check"
                  + " `kubectl get flowschemas` for conditions");
        }
        TimeUnit.MILLISECONDS.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the FlowSchemas", e);
    }
  }

  private static void installCrd(KubernetesClient admin, Optional<Path> crd) {
    if (crd.isEmpty()) {
      AppDeploymentCrd.install(admin, Duration.ofSeconds(60));
      return;
    }
    List<HasMetadata> loaded;
    try (InputStream in = Files.newInputStream(crd.get())) {
      loaded = admin.load(in).items();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the CRD file " + crd.get(), e);
    }
    for (HasMetadata item : loaded) {
      admin.resource(item).serverSideApply();
      if (item instanceof CustomResourceDefinition definition) {
        admin
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(definition.getMetadata().getName())
            .waitUntilCondition(
                d ->
                    d != null
                        && d.getStatus() != null
                        && d.getStatus().getConditions().stream()
                            .anyMatch(
                                c ->
                                    "Established".equals(c.getType())
                                        && "True".equals(c.getStatus())),
                60,
                TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Fake nodes kwok keeps Ready (it manages every node annotated {@code kwok.x-k8s.io/node=fake}).
   */
  private static void addNodes(KubernetesClient admin, int count) {
    for (int i = 0; i < count; i++) {
      admin.nodes().resource(node("kwok-bench-" + i)).serverSideApply();
    }
    for (int i = 0; i < count; i++) {
      admin
          .nodes()
          .withName("kwok-bench-" + i)
          .waitUntilCondition(KwokNode::isReady, 60, TimeUnit.SECONDS);
    }
  }

  private static Node node(String name) {
    return KwokNode.named(name).pods(PODS_PER_NODE).build();
  }

  /**
   * A kubeconfig for the measured client: the cluster's address and CA, and a day-long token of
   * {@link ClientFlowSchemas#SERVICE_ACCOUNT} from the TokenRequest API.
   */
  private static Path tokenKubeconfig(KubernetesClient admin, Path workDir) {
    String token =
        admin
            .serviceAccounts()
            .inNamespace(ClientFlowSchemas.NAMESPACE)
            .withName(ClientFlowSchemas.SERVICE_ACCOUNT)
            .tokenRequest(
                new io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(86_400L)
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();
    io.fabric8.kubernetes.client.Config config = admin.getConfiguration();
    String ca =
        config.getCaCertData() != null
            ? config.getCaCertData()
            : java.util.Base64.getEncoder()
                .encodeToString(
                    read(Path.of(config.getCaCertFile()))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String text =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: bench
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: bench
          context:
            cluster: bench
            user: %s
            namespace: default
        current-context: bench
        """
            .formatted(
                config.getMasterUrl(),
                ca,
                ClientFlowSchemas.SERVICE_ACCOUNT,
                token,
                ClientFlowSchemas.SERVICE_ACCOUNT);
    try {
      Files.createDirectories(workDir);
      Path out = workDir.resolve("client.kubeconfig");
      Files.writeString(out, text);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the client kubeconfig in " + workDir, e);
    }
  }

  @Override
  public void close() {
    admin.close();
    cluster.close();
  }
}
