package dev.converge.testing.internal;

import dev.converge.testing.ClusterFaults;
import dev.converge.testing.ControlPlaneBinaries;
import dev.converge.testing.KwokNode;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.TcpProxy;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A control plane made of child processes: etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler and kwok, with flags after envtest's and kwokctl's, on free loopback ports.
 */
public final class ProcessCluster implements LocalCluster, ClusterFaults {

  private static final Logger log = LoggerFactory.getLogger(ProcessCluster.class);

  /** The one fake node kwok keeps Ready. */
  public static final String NODE_NAME = "kwok-node-0";

  private static final Duration COMPONENT_TIMEOUT = Duration.ofSeconds(90);
  // room for a few thousand Services: the full fault suite runs 500 AppDeployments, each with one
  private static final String SERVICE_CIDR = "10.0.0.0/16";

  private final Path workDir;
  private final List<ComponentProcess> components = new ArrayList<>();
  private final boolean keepFiles =
      Boolean.parseBoolean(System.getenv("CONVERGE_KEEP_CLUSTER_FILES"));
  private Config config;
  private Path kubeconfig;
  private String etcdUrl;
  private String apiUrl;
  private int apiPort;
  private HttpClient adminHttp;
  private Duration startupTime = Duration.ZERO;
  private Thread shutdownHook;

  private ProcessCluster(Path workDir) {
    this.workDir = workDir;
  }

  /**
   * Starts every component and waits until the cluster serves, schedules and runs pods. Ports are
   * picked free just before use, so another process can still take one first: a start that fails
   * with "address already in use" is tried again with new ports, up to three times.
   */
  /**
   * The controller manager's request rate to the API server, when raised from its default (20 per
   * second, bursts of 30) through the system property {@value #KCM_QPS_PROPERTY} or the environment
   * variable {@value #KCM_QPS_ENV}: benchmarks with thousands of Deployments would otherwise
   * measure the controller manager's client limit rather than the operator.
   */
  static java.util.Optional<Integer> controllerManagerQps() {
    String value = System.getProperty(KCM_QPS_PROPERTY, System.getenv(KCM_QPS_ENV));
    if (value == null || value.isBlank()) {
      return java.util.Optional.empty();
    }
    try {
      int qps = Integer.parseInt(value.trim());
      if (qps < 1) {
        throw new NumberFormatException("below 1");
      }
      return java.util.Optional.of(qps);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          KCM_QPS_PROPERTY
              + " / "
              + KCM_QPS_ENV
              + " must be a"
              + " positive number of requests per second, was '"
              + value
              + "'");
    }
  }

  /**
   * Whether kube-apiserver keeps an audit log of every write (see {@link #auditLog()}): the system
   * property {@value #AUDIT_PROPERTY} or the environment variable {@value #AUDIT_ENV} set to {@code
   * true}.
   */
  static boolean auditWanted() {
    return Boolean.parseBoolean(System.getProperty(AUDIT_PROPERTY, System.getenv(AUDIT_ENV)));
  }

  public static final String AUDIT_PROPERTY = "converge.cluster.audit";
  public static final String AUDIT_ENV = "CONVERGE_CLUSTER_AUDIT";

  /**
   * What the audit log records: each write (its user, user agent, object, response code and times),
   * at the Metadata level and once its response is complete; no reads, no request bodies.
   */
  private static final String AUDIT_POLICY =
      """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: ["RequestReceived", "ResponseStarted", "Panic"]
      rules:
      - level: Metadata
        verbs: ["create", "update", "patch", "delete", "deletecollection"]
      - level: None
      """;

  private Path auditLog;

  public static final String KCM_QPS_PROPERTY = "converge.controller-manager.qps";
  public static final String KCM_QPS_ENV = "CONVERGE_CONTROLLER_MANAGER_QPS";

  public static ProcessCluster start(ControlPlaneBinaries binaries) {
    long began = System.nanoTime();
    ProcessCluster cluster = null;
    for (int attempt = 1; cluster == null; attempt++) {
      ProcessCluster candidate = new ProcessCluster(newWorkDir());
      // registered before launching, so Ctrl-C during start-up stops what has started
      candidate.shutdownHook = new Thread(candidate::close, "converge-local-cluster-stop");
      Runtime.getRuntime().addShutdownHook(candidate.shutdownHook);
      try {
        candidate.launch(binaries);
        cluster = candidate;
      } catch (RuntimeException | Error e) {
        candidate.abandon();
        boolean portTaken = String.valueOf(e.getMessage()).contains("address already in use");
        if (!portTaken || attempt == 3) {
          log.error("local cluster failed to start; its logs are kept in {}", candidate.workDir);
          throw e;
        }
        log.warn(
            "local cluster start-up lost a port race (attempt {}); trying again with new ports",
            attempt);
      }
    }
    cluster.startupTime = Duration.ofNanos(System.nanoTime() - began);
    log.info(
        "local cluster ready in {} ms at {} (kubeconfig {})",
        cluster.startupTime.toMillis(),
        cluster.config.getMasterUrl(),
        cluster.kubeconfig);
    return cluster;
  }

  private void launch(ControlPlaneBinaries bin) {
    Pki pki = new Pki();
    Path ca = Pki.write(workDir.resolve("ca.crt"), pki.caPem());
    Path caKey = Pki.write(workDir.resolve("ca.key"), pki.caKeyPem());
    Pki.Issued serving =
        pki.serving(
            "kube-apiserver",
            List.of(
                "localhost",
                "kubernetes",
                "kubernetes.default",
                "kubernetes.default.svc",
                "kubernetes.default.svc.cluster.local"),
            List.of("127.0.0.1", "10.0.0.1"));
    Path servingCert = Pki.write(workDir.resolve("apiserver.crt"), serving.certificatePem());
    Path servingKey = Pki.write(workDir.resolve("apiserver.key"), serving.privateKeyPem());
    Path saKey = Pki.write(workDir.resolve("sa.key"), pki.serviceAccountPrivateKeyPem());
    Path saPub = Pki.write(workDir.resolve("sa.pub"), pki.serviceAccountPublicKeyPem());
    Pki.Issued admin = pki.client("converge-admin", List.of("system:masters"));

    int etcdPort = FreePort.pick();
    int etcdPeerPort = FreePort.pick();
    apiPort = FreePort.pick();
    apiUrl = "https://127.0.0.1:" + apiPort;
    String kubeconfigText = KubeconfigText.of(apiUrl, pki.caPem(), admin);
    kubeconfig = write(workDir.resolve("admin.kubeconfig"), kubeconfigText);
    config = Config.fromKubeconfig(kubeconfigText);

    // etcd
    etcdUrl = "http://127.0.0.1:" + etcdPort;
    String peerUrl = "http://127.0.0.1:" + etcdPeerPort;
    ComponentProcess etcd =
        launch(
            "etcd",
            bin.etcd(),
            List.of(
                "--name=default",
                "--data-dir=" + workDir.resolve("etcd"),
                "--listen-client-urls=" + etcdUrl,
                "--advertise-client-urls=" + etcdUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=default=" + peerUrl,
                "--unsafe-no-fsync=true",
                "--log-level=warn"));
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    await(etcd, "etcd /health", () -> ok(plain, etcdUrl + "/health"));

    // kube-apiserver
    List<String> audit = List.of();
    if (auditWanted()) {
      auditLog = workDir.resolve("audit.log");
      Path policy = write(workDir.resolve("audit-policy.yaml"), AUDIT_POLICY);
      audit =
          List.of(
              "--audit-policy-file=" + policy,
              "--audit-log-path=" + auditLog,
              "--audit-log-format=json",
              "--audit-log-mode=blocking",
              "--audit-log-maxsize=0");
    }
    ComponentProcess apiserver =
        launch(
            "kube-apiserver",
            bin.kubeApiserver(),
            concat(
                audit,
                List.of(
                    "--etcd-servers=" + etcdUrl,
                    "--bind-address=127.0.0.1",
                    "--advertise-address=127.0.0.1",
                    // the 'kubernetes' Service's endpoints may not point at loopback; nothing here
                    // needs them
                    "--endpoint-reconciler-type=none",
                    "--secure-port=" + apiPort,
                    "--cert-dir=" + workDir.resolve("apiserver-certs"),
                    "--tls-cert-file=" + servingCert,
                    "--tls-private-key-file=" + servingKey,
                    "--client-ca-file=" + ca,
                    "--authorization-mode=RBAC",
                    "--service-cluster-ip-range=" + SERVICE_CIDR,
                    "--allow-privileged=true",
                    "--disable-admission-plugins=ServiceAccount",
                    // as in many production clusters: setting blockOwnerDeletion needs update on
                    // the
                    // owner's finalizers, so an operator's RBAC is tested as it will be checked
                    // there
                    "--enable-admission-plugins=OwnerReferencesPermissionEnforcement",
                    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                    "--service-account-key-file=" + saPub,
                    "--service-account-signing-key-file=" + saKey,
                    "--profiling=false",
                    "--v=0")));
    HttpClient mtls = TlsClients.mutual(pki.caPem(), admin);
    adminHttp = mtls;
    await(apiserver, "kube-apiserver /readyz", () -> ok(mtls, apiUrl + "/readyz"));

    // the rest start together
    Path kc = kubeconfig;
    int kcmPort = FreePort.pick();
    int schedulerPort = FreePort.pick();
    List<String> kcmArgs =
        new ArrayList<>(
            List.of(
                "--kubeconfig=" + kc,
                "--authentication-kubeconfig=" + kc,
                "--authorization-kubeconfig=" + kc,
                "--leader-elect=false",
                "--controllers=*",
                "--bind-address=127.0.0.1",
                "--secure-port=" + kcmPort,
                "--root-ca-file=" + ca,
                "--service-account-private-key-file=" + saKey,
                "--cluster-signing-cert-file=" + ca,
                "--cluster-signing-key-file=" + caKey,
                "--use-service-account-credentials=false",
                "--v=0"));
    controllerManagerQps()
        .ifPresent(
            qps ->
                kcmArgs.addAll(List.of("--kube-api-qps=" + qps, "--kube-api-burst=" + (2 * qps))));
    ComponentProcess kcm = launch("kube-controller-manager", bin.kubeControllerManager(), kcmArgs);
    ComponentProcess scheduler =
        launch(
            "kube-scheduler",
            bin.kubeScheduler(),
            List.of(
                "--kubeconfig=" + kc,
                "--authentication-kubeconfig=" + kc,
                "--authorization-kubeconfig=" + kc,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                "--secure-port=" + schedulerPort,
                "--v=0"));
    List<String> stages;
    try (Stream<Path> files = Files.list(bin.kwokStages())) {
      stages =
          files.filter(p -> p.toString().endsWith(".yaml")).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list kwok stages in " + bin.kwokStages(), e);
    }
    ComponentProcess kwok =
        launch(
            "kwok",
            bin.kwok(),
            List.of(
                "--kubeconfig=" + kc,
                "--config=" + String.join(",", stages),
                "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
                "--node-lease-duration-seconds=40",
                "--cidr=10.244.0.1/16",
                "--node-ip=127.0.0.1",
                "--server-address=127.0.0.1:" + FreePort.pick()));

    HttpClient insecure = TlsClients.trustingLoopback();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.nodes().resource(fakeNode()).create();
      await(
          kcm,
          "kube-controller-manager /healthz",
          () -> ok(insecure, "https://127.0.0.1:" + kcmPort + "/healthz"));
      await(
          scheduler,
          "kube-scheduler /healthz",
          () -> ok(insecure, "https://127.0.0.1:" + schedulerPort + "/healthz"));
      await(kwok, "node " + NODE_NAME + " Ready", () -> nodeReady(client));
      await(
          kcm,
          "the default ServiceAccount",
          () -> client.serviceAccounts().inNamespace("default").withName("default").get() != null);
    }
  }

  private ComponentProcess launch(String name, Path binary, List<String> args) {
    ComponentProcess process =
        ComponentProcess.start(name, binary, args, workDir.resolve(name + ".log"));
    components.add(process);
    return process;
  }

  /** Waits for {@code ready}, failing fast with the component's log when it exits. */
  private void await(ComponentProcess component, String what, BooleanSupplier ready) {
    long deadline = System.nanoTime() + COMPONENT_TIMEOUT.toNanos();
    long pause = 20;
    while (true) {
      if (!component.isAlive()) {
        throw new IllegalStateException(
            component.name()
                + " exited while waiting for "
                + what
                + "; last log lines ("
                + component.log()
                + "):\n"
                + component.logTail(30));
      }
      boolean done;
      try {
        done = ready.getAsBoolean();
      } catch (RuntimeException notYet) {
        done = false;
      }
      if (done) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "timed out after "
                + COMPONENT_TIMEOUT.toSeconds()
                + " s waiting for "
                + what
                + "; last log lines of "
                + component.name()
                + " ("
                + component.log()
                + "):\n"
                + component.logTail(30));
      }
      try {
        Thread.sleep(
            pause); // start-up polling on the launching thread, never on a reconcile worker
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
      pause = Math.min(pause * 2, 250);
    }
  }

  private static boolean ok(HttpClient http, String url) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean nodeReady(KubernetesClient client) {
    return KwokNode.isReady(client.nodes().withName(NODE_NAME).get());
  }

  /** The one node of the local cluster: room for the fault suite's thousands of pods. */
  private static Node fakeNode() {
    return KwokNode.named(NODE_NAME).pods(2000).build();
  }

  @Override
  public java.util.Optional<ClusterFaults> faults() {
    return java.util.Optional.of(this);
  }

  @Override
  public synchronized void restartApiServer() {
    ComponentProcess restarted = restart("kube-apiserver");
    await(
        restarted,
        "kube-apiserver /readyz after a restart",
        () -> ok(adminHttp, apiUrl + "/readyz"));
  }

  @Override
  public synchronized void restartEtcd() {
    ComponentProcess restarted = restart("etcd");
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    await(restarted, "etcd /health after a restart", () -> ok(plain, etcdUrl + "/health"));
    ComponentProcess apiserver = component("kube-apiserver");
    await(
        apiserver,
        "kube-apiserver /readyz after etcd restarted",
        () -> ok(adminHttp, apiUrl + "/readyz"));
  }

  @Override
  public long compactEtcd() {
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    // etcd's JSON gateway: the header of any range read carries the current revision
    String range = post(plain, etcdUrl + "/v3/kv/range", "{\"key\":\"AA==\"}");
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"revision\":\"?(\\d+)").matcher(range);
    if (!m.find()) {
      throw new IllegalStateException("no revision in etcd's answer: " + range);
    }
    long revision = Long.parseLong(m.group(1));
    post(
        plain,
        etcdUrl + "/v3/kv/compaction",
        "{\"revision\":\"" + revision + "\",\"physical\":true}");
    log.info("etcd compacted to revision {}", revision);
    return revision;
  }

  @Override
  public java.net.URI etcdUrl() {
    return java.net.URI.create(etcdUrl);
  }

  @Override
  public TcpProxy proxyToApiServer() {
    return TcpProxy.to("127.0.0.1", apiPort);
  }

  private ComponentProcess component(String name) {
    return components.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no component " + name + " in this cluster"));
  }

  private ComponentProcess restart(String name) {
    ComponentProcess old = component(name);
    log.info("killing {} (SIGKILL) and starting it again", name);
    ComponentProcess restarted = old.restart();
    components.set(components.indexOf(old), restarted);
    return restarted;
  }

  private static String post(HttpClient http, String url, String json) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(Duration.ofSeconds(10))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(json))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "POST " + url + " answered " + response.statusCode() + ": " + response.body());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("POST " + url + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during POST " + url, e);
    }
  }

  @Override
  public Config config() {
    return config;
  }

  @Override
  public Path kubeconfig() {
    return kubeconfig;
  }

  @Override
  public Duration startupTime() {
    return startupTime;
  }

  @Override
  public java.util.Optional<Path> auditLog() {
    return java.util.Optional.ofNullable(auditLog);
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** The folder holding certificates, kubeconfig, etcd data and each component's log. */
  public Path workDir() {
    return workDir;
  }

  @Override
  public synchronized void close() {
    if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException alreadyShuttingDown) {
        // the hook is running or about to; stopping twice is harmless
      }
    }
    stopComponents();
    if (!keepFiles) {
      deleteTree(workDir);
    }
  }

  /** After a failed start: stops what runs and frees the etcd data, keeping the logs to read. */
  private void abandon() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running; it stops the components itself
    }
    stopComponents();
    deleteTree(workDir.resolve("etcd"));
  }

  private void stopComponents() {
    // reverse order: kwok and controllers first, etcd last
    for (int i = components.size() - 1; i >= 0; i--) {
      components.get(i).close();
    }
    components.clear();
  }

  /**
   * A tmpfs folder makes etcd faster; it is used only when it has room for etcd's pre-allocated
   * write-ahead log and database (containers often mount a 64 MiB /dev/shm).
   */
  private static Path newWorkDir() {
    Path shm = Path.of("/dev/shm");
    Path base = usable(shm, 1L << 30) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    try {
      return Files.createTempDirectory(base, "converge-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a work folder in " + base, e);
    }
  }

  private static boolean usable(Path folder, long minFreeBytes) {
    try {
      return Files.isDirectory(folder)
          && Files.isWritable(folder)
          && Files.getFileStore(folder).getUsableSpace() >= minFreeBytes;
    } catch (IOException e) {
      return false;
    }
  }

  private static Path write(Path file, String text) {
    try {
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not remove {}: {}", root, e.toString());
    }
  }
}
