package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The example operator as K replicas, each its own JVM: with K above 1 every replica runs with
 * {@code --sharded} and an identity of its own ({@code bench-0}, {@code bench-1}, ...), so that
 * each caches and reconciles its share of the AppDeployments and the one that leads also runs the
 * sharder; with K = 1 the operator runs alone and unsharded, as {@code bin/bench} runs it, so that
 * the two are measured the same way. Measures the time until every AppDeployment is Running, and
 * per replica its CPU, peak RSS, heap after a full GC and the objects it holds; and the sharder's
 * own share: the CPU of the leading replica's threads named after the sharder, its {@code
 * converge_sharder_*} metrics, and its heap beside the other replicas'.
 */
public final class ShardedRun {

  /** The shard ring's name: the example's leader-election Lease. */
  static final String RING = "app-operator";

  private final BenchSettings settings;
  private final Consumer<String> progress;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public ShardedRun(BenchSettings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * One replica's figures.
   *
   * @param identity its leader-election identity ({@code operator} when alone)
   * @param leads whether it held the leader Lease at the end (it ran the sharder)
   * @param cpuConvergeSeconds its CPU from the first create until every AppDeployment was Running
   * @param cpuSeconds its CPU from its start until the end
   * @param peakRssMib its peak resident set
   * @param heapAfterFullGcMib its heap in use after a full GC, at the end; null when unknown
   * @param shardObjects its {@code converge_shard_objects} at the end; null when it has none
   * @param sharderCpuSeconds CPU of its threads whose names hold {@code shard} (the sharder's and
   *     the shard Lease's), from its start until the end
   */
  public record Replica(
      String identity,
      boolean leads,
      double cpuConvergeSeconds,
      double cpuSeconds,
      double peakRssMib,
      Double heapAfterFullGcMib,
      Double shardObjects,
      double sharderCpuSeconds) {}

  /**
   * The figures of one run.
   *
   * @param objects AppDeployments
   * @param podReplicas pods per AppDeployment
   * @param operatorReplicas replicas of the operator
   * @param convergeSeconds from the first create until every AppDeployment was Running
   * @param replicas each replica's figures
   * @param sharderMetrics the leading replica's {@code converge_sharder_*} samples at the end
   */
  public record Figures(
      int objects,
      int podReplicas,
      int operatorReplicas,
      double convergeSeconds,
      List<Replica> replicas,
      Map<String, Double> sharderMetrics) {

    /** Sum of every replica's CPU from the first create until converged. */
    public double cpuConvergeSeconds() {
      return replicas.stream().mapToDouble(Replica::cpuConvergeSeconds).sum();
    }

    /** The largest heap after a full GC among the replicas, or null when unknown. */
    public Double largestHeapMib() {
      return replicas.stream()
          .map(Replica::heapAfterFullGcMib)
          .filter(h -> h != null)
          .max(Double::compare)
          .orElse(null);
    }
  }

  private Duration convergeTimeout() {
    return Duration.ofSeconds(300 + settings.workload().objects() / 5L);
  }

  /**
   * Runs {@code k} replicas on a fresh control plane until the workload is Running.
   *
   * @param k replicas of the operator, at least 1
   * @return the figures
   */
  public Figures measure(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("--operator-replicas must be at least 1, not " + k);
    }
    Workload w = settings.workload();
    Path workDir = settings.workDir().resolve("k" + k);
    int maxPods = w.objects() * w.replicas() + w.configMaps() * Math.max(1, w.replicas()) + 10;
    try (BenchCluster bench = BenchCluster.start(settings.crd(), maxPods, workDir)) {
      KubernetesClient admin = bench.admin();
      w.prepare(admin);
      ConvergenceTracker<GenericKubernetesResource> running =
          new ConvergenceTracker<>(w.keys(), Rollout::running);
      SharedIndexInformer<GenericKubernetesResource> apps =
          admin
              .genericKubernetesResources(BenchmarkRun.APP_DEPLOYMENTS)
              .inAnyNamespace()
              .inform(running);
      List<OperatorProcess> processes = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      List<Integer> ports = new ArrayList<>();
      try {
        for (int i = 0; i < k; i++) {
          String id = k == 1 ? "operator" : "bench-" + i;
          int port = freePort();
          ids.add(id);
          ports.add(port);
          processes.add(start(bench, workDir, id, port, k > 1));
        }
        for (int i = 0; i < k; i++) {
          awaitReady(processes.get(i), ids.get(i));
        }
        progress.accept(
            String.format("%d replica(s) ready (caches synced): %s", k, String.join(", ", ids)));
        double[] cpuBefore = new double[k];
        for (int i = 0; i < k; i++) {
          cpuBefore[i] = processes.get(i).cpuSeconds();
        }
        running.start();
        Workload.inParallel(
            w.items(),
            item ->
                admin
                    .genericKubernetesResources(BenchmarkRun.APP_DEPLOYMENTS)
                    .inNamespace(item.namespace())
                    .resource(w.appDeployment(item))
                    .create());
        double converge = running.awaitAll(convergeTimeout(), "Running");
        double[] cpuConverge = new double[k];
        for (int i = 0; i < k; i++) {
          cpuConverge[i] = processes.get(i).cpuSeconds() - cpuBefore[i];
        }
        progress.accept(
            String.format(
                "%d AppDeployments Running in %.2f s over %d replica(s)",
                w.objects(), converge, k));
        String leader = k == 1 ? "operator" : leader(admin).orElse("");
        Map<String, Double> sharderMetrics = new TreeMap<>();
        List<Replica> replicas = new ArrayList<>();
        for (int i = 0; i < k; i++) {
          OperatorProcess p = processes.get(i);
          Map<String, Double> metrics = samples(ports.get(i), "converge_s");
          if (ids.get(i).equals(leader) && k > 1) {
            metrics.forEach(
                (name, v) -> {
                  if (name.startsWith("converge_sharder_")) {
                    sharderMetrics.put(name, v);
                  }
                });
          }
          Double shardObjects =
              metrics.entrySet().stream()
                  .filter(e -> e.getKey().startsWith("converge_shard_objects"))
                  .filter(
                      e -> !e.getKey().contains("kind=") || e.getKey().contains("AppDeployment"))
                  .map(Map.Entry::getValue)
                  .reduce(Double::sum)
                  .orElse(null);
          double sharderCpu =
              p.cpuSecondsByThread().entrySet().stream()
                  .filter(e -> e.getKey().toLowerCase(java.util.Locale.ROOT).contains("shard"))
                  .mapToDouble(Map.Entry::getValue)
                  .sum();
          double cpu = p.cpuSeconds();
          long rss = p.peakRssBytes();
          OptionalLong heap = p.heapAfterFullGcBytes();
          replicas.add(
              new Replica(
                  ids.get(i),
                  ids.get(i).equals(leader),
                  cpuConverge[i],
                  cpu,
                  rss / 1048576.0,
                  heap.isPresent() ? heap.getAsLong() / 1048576.0 : null,
                  shardObjects,
                  sharderCpu));
        }
        Figures figures =
            new Figures(w.objects(), w.replicas(), k, converge, replicas, sharderMetrics);
        for (Replica r : replicas) {
          progress.accept(
              String.format(
                  "%s%s: CPU %.1f s while converging (%.1f s in all), peak RSS %.0f MiB, heap"
                      + " after full GC %s MiB, shard objects %s, sharder threads' CPU %.2f s",
                  r.identity(),
                  r.leads() && k > 1 ? " (leads, runs the sharder)" : "",
                  r.cpuConvergeSeconds(),
                  r.cpuSeconds(),
                  r.peakRssMib(),
                  r.heapAfterFullGcMib() == null
                      ? "n/a"
                      : String.format("%.1f", r.heapAfterFullGcMib()),
                  r.shardObjects() == null ? "n/a" : String.format("%.0f", r.shardObjects()),
                  r.sharderCpuSeconds()));
        }
        if (!sharderMetrics.isEmpty()) {
          progress.accept("sharder metrics of " + leader + ": " + sharderMetrics);
        }
        return figures;
      } finally {
        for (OperatorProcess p : processes) {
          p.close();
        }
        apps.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("benchmark interrupted", e);
    }
  }

  private OperatorProcess start(
      BenchCluster bench, Path workDir, String id, int port, boolean sharded) {
    List<String> command = new ArrayList<>();
    for (String arg : settings.operatorCommand()) {
      if (arg.equals(BenchSettings.CDS)) {
        continue; // no start-up archive in this run
      }
      command.add(
          OperatorUnderTest.replacePorts(
                  arg.replace("{kubeconfig}", bench.clientKubeconfig().toString()), port, port)
              .replace("{name}", id));
    }
    if (sharded) {
      command.addAll(
          List.of(
              "--sharded", "--leader-election-id", id, "--leader-election-namespace", "default"));
    }
    URI ready = URI.create(OperatorUnderTest.replacePorts(settings.readyUrl(), port, port));
    URI metrics = URI.create(OperatorUnderTest.replacePorts(settings.metricsUrl(), port, port));
    return OperatorProcess.start(
        command, ready, metrics, settings.reconcileMetric(), workDir.resolve(id + ".log"));
  }

  private void awaitReady(OperatorProcess operator, String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!operator.ready()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "replica " + id + " was not ready within 180 s; its output is in " + operator.log());
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /** The samples of the replica's metrics whose name starts with {@code prefix}, by series. */
  private Map<String, Double> samples(int port, String prefix) {
    Map<String, Double> out = new TreeMap<>();
    URI uri = URI.create(OperatorUnderTest.replacePorts(settings.metricsUrl(), port, port));
    String body;
    try {
      body =
          http.send(
                  HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    } catch (IOException e) {
      progress.accept("no metrics from " + uri + ": " + e.getMessage());
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + uri, e);
    }
    for (String line : body.lines().toList()) {
      if (line.startsWith(prefix)) {
        int space = line.lastIndexOf(' ');
        try {
          out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        } catch (NumberFormatException notASample) {
          progress.accept("a metrics line without a number, left out: " + line);
        }
      }
    }
    return out;
  }

  private static Optional<String> leader(KubernetesClient admin) {
    Lease lease = admin.leases().inNamespace("default").withName(RING).get();
    return Optional.ofNullable(lease)
        .map(Lease::getSpec)
        .map(spec -> spec.getHolderIdentity())
        .filter(h -> !h.isBlank());
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port for the operator's HTTP server", e);
    }
  }

  /**
   * Writes {@code n<N>-r<R>.json} and {@code .md} for the runs of one size into {@code folder}, and
   * {@code n<N>-r<R>.png}: time to converge and the largest replica heap against K.
   *
   * @return the markdown table
   */
  public static String write(Path folder, String machine, List<Figures> runs) {
    if (runs.isEmpty()) {
      return "";
    }
    Figures first = runs.get(0);
    String stem = Reports.stem(first.objects(), first.podReplicas());
    StringBuilder md = new StringBuilder();
    md.append("Machine: ").append(machine).append("\n\n");
    md.append(
        String.format(
            "%d AppDeployments, %d pod(s) each; K replicas of the example operator (K > 1:"
                + " --sharded, each its own JVM)%n%n",
            first.objects(), first.podReplicas()));
    md.append(
        "| K | all Running (s) | CPU while converging, all replicas (s) | largest heap after"
            + " full GC (MiB) |\n|---|---|---|---|\n");
    for (Figures f : runs) {
      md.append(
          String.format(
              "| %d | %.1f | %.1f | %s |%n",
              f.operatorReplicas(),
              f.convergeSeconds(),
              f.cpuConvergeSeconds(),
              f.largestHeapMib() == null ? "n/a" : String.format("%.1f", f.largestHeapMib())));
    }
    md.append(
        "\nPer replica:\n\n| K | replica | leads (sharder) | AppDeployments it holds |"
            + " CPU while converging (s) | CPU in all (s) | sharder threads' CPU (s) | peak RSS"
            + " (MiB) | heap after full GC (MiB) |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Figures f : runs) {
      for (Replica r : f.replicas()) {
        md.append(
            String.format(
                "| %d | %s | %s | %s | %.1f | %.1f | %.2f | %.0f | %s |%n",
                f.operatorReplicas(),
                r.identity(),
                f.operatorReplicas() > 1 && r.leads() ? "yes" : "",
                r.shardObjects() == null ? "all" : String.format("%.0f", r.shardObjects()),
                r.cpuConvergeSeconds(),
                r.cpuSeconds(),
                r.sharderCpuSeconds(),
                r.peakRssMib(),
                r.heapAfterFullGcMib() == null
                    ? "n/a"
                    : String.format("%.1f", r.heapAfterFullGcMib())));
      }
    }
    for (Figures f : runs) {
      if (!f.sharderMetrics().isEmpty()) {
        md.append(
            String.format(
                "%nThe sharder's metrics at the end (K = %d, the leading replica):%n%n```%n",
                f.operatorReplicas()));
        f.sharderMetrics().forEach((name, v) -> md.append(name).append(' ').append(v).append('\n'));
        md.append("```\n");
      }
    }
    try {
      Files.createDirectories(folder);
      Files.writeString(
          folder.resolve(stem + ".json"),
          tools.jackson.databind.json.JsonMapper.builder()
              .enable(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
              .build()
              .writeValueAsString(runs));
      Files.writeString(folder.resolve(stem + ".md"), md.toString());
      List<double[]> time = new ArrayList<>();
      List<double[]> heap = new ArrayList<>();
      List<double[]> cpu = new ArrayList<>();
      for (Figures f : runs) {
        time.add(new double[] {f.operatorReplicas(), f.convergeSeconds()});
        cpu.add(new double[] {f.operatorReplicas(), f.cpuConvergeSeconds()});
        if (f.largestHeapMib() != null) {
          heap.add(new double[] {f.operatorReplicas(), f.largestHeapMib()});
        }
      }
      new LineChart(
              "Sharded replicas, " + first.objects() + " AppDeployments (" + stem + ")",
              "replicas of the operator (K)",
              "seconds / MiB",
              true)
          .add(new LineChart.Series("all Running (s)", time))
          .add(new LineChart.Series("CPU while converging, all replicas (s)", cpu))
          .add(new LineChart.Series("largest replica heap after full GC (MiB)", heap))
          .write(folder.resolve(stem + ".png"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the results into " + folder, e);
    }
    return md.toString();
  }
}
