package dev.converge.example.demo;

import com.google.errorprone.annotations.FormatMethod;
import dev.converge.example.AppOperator;
import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.AppLabels;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.status.Conditions;
import dev.converge.testing.ControlPlaneBinaries;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.ProcessLauncher;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The whole AppDeployment story in one JVM, for a person watching: start a local control plane,
 * install the CRD, start the operator, apply an AppDeployment with a ConfigMap, watch it reach
 * Running, change the ConfigMap and watch the new ReplicaSet roll, clean up. {@code bin/demo}.
 *
 * <p>{@code --keep} leaves everything running at the end (until Ctrl-C) to look around with
 * kubectl.
 */
public final class Demo {

  static final String NAMESPACE = "demo";
  static final String APP = "hello";
  static final String CONFIG = "hello-config";
  static final int REPLICAS = 3;
  static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);

  private final PrintStream out = System.out;
  private final long started = System.nanoTime();

  public static void main(String[] args) throws Exception {
    boolean keep = List.of(args).contains("--keep");
    new Demo().run(keep);
  }

  void run(boolean keep) throws Exception {
    Cleanup cleanup = new Cleanup();
    Thread hook = new Thread(cleanup::run, "demo-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);

    step(
        "Starting a local control plane: etcd, kube-apiserver, kube-controller-manager,"
            + " kube-scheduler, kwok (one fake node)");
    LocalCluster cluster = LocalCluster.start();
    cleanup.add("local cluster stopped", cluster::close);
    say(
        "ready in %.1f s at %s",
        cluster.startupTime().toMillis() / 1000.0, cluster.config().getMasterUrl());

    KubernetesClient admin = cluster.newClient();
    cleanup.add(null, admin::close);

    step(
        "Installing the CRD "
            + AppDeployment.CRD_NAME
            + " (generated from the Java model at build time)");
    AppDeploymentCrd.install(admin, Duration.ofSeconds(60));
    say("established; kubectl get appdeployments now works");

    step("Starting the operator (Deployment written by server-side apply, Service by update)");
    AtomicInteger writes = new AtomicInteger();
    Interceptor countWrites =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if (!request.method().equals("GET")) {
              writes.incrementAndGet();
            }
          }
        };
    KubernetesClient operatorClient =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(cluster.config())
                    .withUserAgent(AppOperator.NAME + "/demo")
                    .build())
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor("count-writes", countWrites))
            .build();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Operator operator =
        new AppOperator()
            .operator(
                builder -> builder.client(operatorClient).meterRegistry(registry).httpPort(0));
    cleanup.add(
        "operator stopped",
        () -> {
          operator.stop(Duration.ofSeconds(10));
          operatorClient.close();
        });
    operator.start();
    operator.awaitCachesSynced(Duration.ofSeconds(60));
    say(
        "running; GET http://localhost:%d/readyz -> %s",
        operator.httpPort(),
        httpGet(operator.httpPort(), "/readyz").lines().findFirst().orElse(""));

    step("Applying a ConfigMap and an AppDeployment in namespace " + NAMESPACE);
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    admin
        .configMaps()
        .inNamespace(NAMESPACE)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(CONFIG)
                .endMetadata()
                .withData(Map.of("GREETING", "hello"))
                .build())
        .serverSideApply();
    say("ConfigMap %s: GREETING=hello", CONFIG);
    admin
        .resources(AppDeployment.class)
        .inNamespace(NAMESPACE)
        .resource(
            AppDeployment.of(
                NAMESPACE, APP, new AppDeploymentSpec("nginx:1.27", REPLICAS, CONFIG, 8080)))
        .serverSideApply();
    say(
        "AppDeployment %s: image nginx:1.27, replicas %d, configMapName %s, port 8080",
        APP, REPLICAS, CONFIG);

    step("Waiting for phase Running");
    follow(() -> appLine(admin), () -> isRunning(admin));
    showObjects(admin);
    say("");
    say("$ kubectl -n %s get appdeployments", NAMESPACE);
    kubectl(cluster, "-n", NAMESPACE, "get", "appdeployments");

    step("Changing the ConfigMap (GREETING=bonjour): the pods must roll");
    String hashBefore = configHash(admin);
    admin
        .configMaps()
        .inNamespace(NAMESPACE)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(CONFIG)
                .endMetadata()
                .withData(Map.of("GREETING", "bonjour"))
                .build())
        .serverSideApply();
    waitFor(() -> !Objects.equals(hashBefore, configHash(admin)));
    say(
        "pod-template annotation %s: %s -> %s",
        AppLabels.CONFIG_HASH_ANNOTATION, hashBefore, configHash(admin));
    follow(() -> replicaSetsLine(admin), () -> isRunning(admin) && oldReplicaSetsEmpty(admin));
    showReplicaSets(admin);
    showPods(admin);

    step("Scaling the Deployment by hand to 1 (as kubectl scale would): the operator restores it");
    admin
        .apps()
        .deployments()
        .inNamespace(NAMESPACE)
        .withName(APP)
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("kubectl-scale")
                .build(),
            "{\"spec\":{\"replicas\":1}}");
    follow(
        () -> "Deployment spec.replicas " + deploymentReplicas(admin),
        () -> deploymentReplicas(admin) == REPLICAS);

    if (!keep) {
      step("Deleting the AppDeployment: the garbage collector removes what it owns");
      say("(the collector finds new kinds on a 30 s discovery pass;");
      say(" with a CRD installed seconds ago this takes up to half a minute)");
      admin.resources(AppDeployment.class).inNamespace(NAMESPACE).withName(APP).delete();
      follow(
          () ->
              String.format(
                  "Deployment %s, Service %s",
                  admin.apps().deployments().inNamespace(NAMESPACE).withName(APP).get() == null
                      ? "gone"
                      : "present",
                  admin.services().inNamespace(NAMESPACE).withName(APP).get() == null
                      ? "gone"
                      : "present"),
          () ->
              admin.apps().deployments().inNamespace(NAMESPACE).withName(APP).get() == null
                  && admin.services().inNamespace(NAMESPACE).withName(APP).get() == null);
    }

    long reconciles =
        registry.find(MicrometerControllerMetrics.RECONCILE).timers().stream()
            .mapToLong(Timer::count)
            .sum();
    step(
        "Done in "
            + (System.nanoTime() - started) / 1_000_000_000
            + " s: the operator ran "
            + reconciles
            + " reconciles and sent "
            + writes.get()
            + " write requests");
    if (keep) {
      say("Everything keeps running. In another shell:");
      say("  export KUBECONFIG=%s", cluster.kubeconfig());
      say("  kubectl -n %s get appdeployments,deployments,services,replicasets,pods", NAMESPACE);
      say("  curl localhost:%d/metrics", operator.httpPort());
      say("Press Ctrl-C to stop and clean up.");
      Thread.currentThread().join();
    }
    Runtime.getRuntime().removeShutdownHook(hook);
    cleanup.run();
  }

  // ---- what the demo shows ------------------------------------------------------------------

  private String appLine(KubernetesClient admin) {
    AppDeployment app =
        admin.resources(AppDeployment.class).inNamespace(NAMESPACE).withName(APP).get();
    AppDeploymentStatus status = app == null ? null : app.getStatus();
    if (status == null) {
      return "AppDeployment " + APP + ": no status yet";
    }
    String ready =
        Conditions.find(status.conditions(), AppDeploymentStatus.READY)
            .map(c -> c.getReason() + ": " + c.getMessage())
            .orElse("");
    return String.format(
        "%-8s  ready %d/%d  %s",
        status.phase(),
        status.readyReplicas() == null ? 0 : status.readyReplicas(),
        REPLICAS,
        ready);
  }

  private String replicaSetsLine(KubernetesClient admin) {
    List<String> parts = new ArrayList<>();
    for (ReplicaSet rs : replicaSets(admin)) {
      parts.add(
          String.format(
              "%s %d/%d ready",
              shortHashOf(rs),
              orZero(rs.getStatus() == null ? null : rs.getStatus().getReadyReplicas()),
              orZero(rs.getSpec().getReplicas())));
    }
    AppDeployment app =
        admin.resources(AppDeployment.class).inNamespace(NAMESPACE).withName(APP).get();
    String phase =
        app == null || app.getStatus() == null ? "-" : String.valueOf(app.getStatus().phase());
    return String.format("%-8s  pods by config-hash: %s", phase, String.join(", ", parts));
  }

  private void showObjects(KubernetesClient admin) {
    AppDeployment app =
        admin.resources(AppDeployment.class).inNamespace(NAMESPACE).withName(APP).get();
    Deployment deployment = admin.apps().deployments().inNamespace(NAMESPACE).withName(APP).get();
    Service service = admin.services().inNamespace(NAMESPACE).withName(APP).get();
    say("");
    table(
        List.of(
            List.of("KIND", "NAME", "DETAILS"),
            List.of(
                "AppDeployment",
                APP,
                "image "
                    + app.getSpec().image()
                    + ", phase "
                    + app.getStatus().phase()
                    + ", observedGeneration "
                    + app.getStatus().observedGeneration()
                    + "/"
                    + app.getMetadata().getGeneration()),
            List.of(
                "Deployment",
                APP,
                deployment.getStatus().getReadyReplicas()
                    + "/"
                    + deployment.getSpec().getReplicas()
                    + " ready, envFrom ConfigMap "
                    + CONFIG
                    + ", owner AppDeployment/"
                    + APP),
            List.of(
                "Service",
                APP,
                service.getSpec().getType()
                    + " "
                    + service.getSpec().getClusterIP()
                    + ":"
                    + service.getSpec().getPorts().get(0).getPort()
                    + ", owner AppDeployment/"
                    + APP)));
    showPods(admin);
  }

  private void showPods(KubernetesClient admin) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("POD", "READY", "NODE", "IP"));
    for (Pod pod : pods(admin)) {
      rows.add(
          List.of(
              pod.getMetadata().getName(),
              isReady(pod) ? "1/1" : "0/1",
              String.valueOf(pod.getSpec().getNodeName()),
              pod.getStatus() == null ? "" : String.valueOf(pod.getStatus().getPodIP())));
    }
    say("");
    table(rows);
  }

  private void showReplicaSets(KubernetesClient admin) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("REPLICASET", "DESIRED", "READY", "CONFIG-HASH"));
    for (ReplicaSet rs : replicaSets(admin)) {
      rows.add(
          List.of(
              rs.getMetadata().getName(),
              String.valueOf(orZero(rs.getSpec().getReplicas())),
              String.valueOf(
                  orZero(rs.getStatus() == null ? null : rs.getStatus().getReadyReplicas())),
              shortHashOf(rs)));
    }
    say("");
    table(rows);
  }

  private int deploymentReplicas(KubernetesClient admin) {
    Deployment deployment = admin.apps().deployments().inNamespace(NAMESPACE).withName(APP).get();
    return deployment == null ? 0 : orZero(deployment.getSpec().getReplicas());
  }

  private boolean isRunning(KubernetesClient admin) {
    AppDeployment app =
        admin.resources(AppDeployment.class).inNamespace(NAMESPACE).withName(APP).get();
    return app != null
        && app.getStatus() != null
        && app.getStatus().phase() == Phase.Running
        && Objects.equals(app.getStatus().observedGeneration(), app.getMetadata().getGeneration());
  }

  private boolean oldReplicaSetsEmpty(KubernetesClient admin) {
    String current = configHash(admin);
    return replicaSets(admin).stream()
        .filter(rs -> !Objects.equals(current, hashOf(rs)))
        .allMatch(
            rs ->
                orZero(rs.getSpec().getReplicas()) == 0
                    && orZero(rs.getStatus() == null ? null : rs.getStatus().getReplicas()) == 0);
  }

  private String configHash(KubernetesClient admin) {
    Deployment deployment = admin.apps().deployments().inNamespace(NAMESPACE).withName(APP).get();
    Map<String, String> annotations =
        deployment.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(AppLabels.CONFIG_HASH_ANNOTATION);
  }

  private List<ReplicaSet> replicaSets(KubernetesClient admin) {
    return admin
        .apps()
        .replicaSets()
        .inNamespace(NAMESPACE)
        .withLabel(AppLabels.INSTANCE, APP)
        .list()
        .getItems()
        .stream()
        .sorted(Comparator.comparing(rs -> rs.getMetadata().getCreationTimestamp()))
        .toList();
  }

  private List<Pod> pods(KubernetesClient admin) {
    return admin
        .pods()
        .inNamespace(NAMESPACE)
        .withLabel(AppLabels.INSTANCE, APP)
        .list()
        .getItems()
        .stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .toList();
  }

  private static String hashOf(ReplicaSet rs) {
    Map<String, String> annotations = rs.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(AppLabels.CONFIG_HASH_ANNOTATION);
  }

  private static String shortHashOf(ReplicaSet rs) {
    String hash = hashOf(rs);
    return hash == null ? "-" : hash.substring(0, 8);
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  /** Runs the cluster's kubectl and prints its output indented; a failure is shown, not fatal. */
  private void kubectl(LocalCluster cluster, String... args) {
    try {
      List<String> command = new ArrayList<>();
      command.add(ControlPlaneBinaries.locate().kubectl().toString());
      command.add("--kubeconfig=" + cluster.kubeconfig());
      command.addAll(List.of(args));
      String output = ProcessLauncher.command(command).run(Duration.ofSeconds(60)).output();
      output.lines().forEach(line -> say("%s", line));
    } catch (Exception e) {
      say("(kubectl not available: %s)", e.getMessage());
    }
  }

  // ---- printing and waiting -----------------------------------------------------------------

  private void step(String text) {
    out.printf("%n[%5.1fs] ==> %s%n", (System.nanoTime() - started) / 1e9, text);
  }

  @FormatMethod
  private void say(String format, Object... args) {
    out.println(format.isEmpty() ? "" : "          " + String.format(format, args));
  }

  private void table(List<List<String>> rows) {
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(String.format("%-" + (widths[i] + 2) + "s", row.get(i)));
      }
      say("%s", line.toString().stripTrailing());
    }
  }

  /** Prints {@code line} each time it changes until {@code done}. */
  private void follow(Supplier<String> line, Supplier<Boolean> done) throws InterruptedException {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    String last = null;
    while (true) {
      String now = line.get();
      if (!now.equals(last)) {
        say("%s", now);
        last = now;
      }
      if (done.get()) {
        String last2 = line.get();
        if (!last2.equals(last)) {
          say("%s", last2);
        }
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no progress within " + STEP_TIMEOUT + "; last state: " + now);
      }
      Thread.sleep(300);
    }
  }

  private static void waitFor(Supplier<Boolean> condition) throws InterruptedException {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (!condition.get()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("condition not reached within " + STEP_TIMEOUT);
      }
      Thread.sleep(200);
    }
  }

  private static String httpGet(int port, String path) {
    try {
      return HttpClient.newHttpClient()
          .send(
              java.net.http.HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (Exception e) {
      return "unreachable: " + e.getMessage();
    }
  }

  /** What to undo, in reverse order, once — at the end or on Ctrl-C. */
  private final class Cleanup {
    private final List<Map.Entry<String, Runnable>> actions = new ArrayList<>();
    private boolean done;

    synchronized void add(String message, Runnable action) {
      actions.add(0, new java.util.AbstractMap.SimpleEntry<>(message, action));
    }

    synchronized void run() {
      if (done) {
        return;
      }
      done = true;
      step("Cleaning up");
      for (Map.Entry<String, Runnable> action : actions) {
        try {
          action.getValue().run();
          if (action.getKey() != null) {
            say("%s", action.getKey());
          }
        } catch (RuntimeException e) {
          say("cleanup step failed: %s", e.getMessage());
        }
      }
    }
  }
}
