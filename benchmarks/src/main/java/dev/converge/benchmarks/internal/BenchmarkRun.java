package dev.converge.benchmarks.internal;

import dev.converge.confighash.ConfigHash;
import dev.converge.example.AppOperator;
import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.desired.AppLabels;
import dev.converge.example.desired.DesiredDeployment;
import dev.converge.example.desired.DesiredService;
import dev.converge.operator.DryRunReport;
import dev.converge.operator.Operator;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.ref.Reference;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Runs one size in one mode on a fresh local control plane and returns its figures. */
public final class BenchmarkRun {

  /** The AppDeployments every run creates and watches, read without their classes. */
  static final ResourceDefinitionContext APP_DEPLOYMENTS =
      new ResourceDefinitionContext.Builder()
          .withGroup("apps.converge.dev")
          .withVersion("v1")
          .withKind("AppDeployment")
          .withPlural("appdeployments")
          .withNamespaced(true)
          .build();

  private final BenchSettings settings;
  private final Consumer<String> progress;

  public BenchmarkRun(BenchSettings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  private Duration convergeTimeout() {
    return Duration.ofSeconds(300 + settings.workload().objects() / 5L);
  }

  private int maxPods() {
    Workload w = settings.workload();
    return w.objects() * w.replicas() + w.configMaps() * Math.max(1, w.replicas()) + 10;
  }

  /** The operator under test: start, converge, idle, fan-out, cost, restart. */
  public RunFigures operator() {
    return measure(settings.operator());
  }

  /**
   * The peer, measured as the operator is, on a fresh control plane.
   *
   * @throws IllegalStateException when the settings name no peer
   */
  public RunFigures peer() {
    return measure(
        settings.peer().orElseThrow(() -> new IllegalStateException("no peer to measure")));
  }

  private RunFigures measure(OperatorUnderTest subject) {
    Workload w = settings.workload();
    long clusterBegan = System.nanoTime();
    try (BenchCluster bench = BenchCluster.start(settings.crd(), maxPods(), settings.workDir())) {
      double clusterStart = (System.nanoTime() - clusterBegan) / 1e9;
      KubernetesClient admin = bench.admin();
      ApiServerMetrics metrics = bench.metrics();
      w.prepare(admin);
      progress.accept(
          String.format(
              "%s run: cluster ready in %.1f s, %d namespaces, %d ConfigMaps",
              subject.mode(), clusterStart, w.namespaces(), w.configMaps()));

      ConvergenceTracker<GenericKubernetesResource> running =
          new ConvergenceTracker<>(w.keys(), Rollout::running);
      SharedIndexInformer<GenericKubernetesResource> apps =
          admin.genericKubernetesResources(APP_DEPLOYMENTS).inAnyNamespace().inform(running);
      ConvergenceTracker<Deployment> created = new ConvergenceTracker<>(w.keys(), d -> true);
      SharedIndexInformer<Deployment> deployments =
          admin.apps().deployments().inAnyNamespace().inform(created);
      try {
        Ports port = Ports.free();
        if (subject.startupArchive()) {
          trainStartupArchive(subject, bench, port);
        }
        OperatorProcess operator = startOperator(subject, bench, port, subject.mode() + ".log");
        try {
          double toReady = awaitReady(operator, subject);
          progress.accept(
              String.format(
                  "%s ready (caches synced) %.2f s after start", subject.mode(), toReady));

          MetricsSnapshot before = metrics.snapshot();
          double cpuBefore = operator.cpuSeconds();
          Map<String, Double> threadsBefore = operator.cpuSecondsByThread();
          OptionalLong reconcilesBefore = operator.reconciles();
          Map<String, Double> controlPlaneBefore = ControlPlaneCpu.snapshot();
          Map<String, Long> sent = new ConcurrentHashMap<>();
          running.start();
          created.start();
          Workload.inParallel(
              w.items(),
              item -> {
                sent.put(item.key(), System.nanoTime());
                admin
                    .genericKubernetesResources(APP_DEPLOYMENTS)
                    .inNamespace(item.namespace())
                    .resource(w.appDeployment(item))
                    .create();
              });
          double converge = running.awaitAll(convergeTimeout(), "Running");
          created.awaitAll(convergeTimeout(), "seen with a Deployment");
          Lags createLag = Lags.between(sent, created.doneAtNanos());
          Lags runningLag = Lags.between(sent, running.doneAtNanos());
          double cpuConverge = operator.cpuSeconds() - cpuBefore;
          Map<String, Double> controlPlaneCpu =
              OperatorProcess.difference(controlPlaneBefore, ControlPlaneCpu.snapshot());
          Map<String, Double> cpuByThread =
              OperatorProcess.difference(threadsBefore, operator.cpuSecondsByThread());
          OptionalLong reconcilesAfter = operator.reconciles();
          // No reconcile yet is no sample of the counter yet: zero.
          Double reconciles =
              reconcilesAfter.isPresent()
                  ? (reconcilesAfter.getAsLong() - reconcilesBefore.orElse(0))
                      / (double) w.objects()
                  : null;
          MetricsSnapshot converged = metrics.snapshot().since(before);
          progress.accept(
              String.format(
                  "%d AppDeployments Running in %.2f s; operator wrote %d, read %d",
                  w.objects(), converge, converged.clientWrites(), converged.clientReads()));

          MetricsSnapshot idleStart = metrics.snapshot();
          TimeUnit.SECONDS.sleep(settings.idleSeconds());
          long idleWrites = metrics.snapshot().since(idleStart).clientWrites();
          progress.accept(
              String.format(
                  "%d writes by the operator in %d idle seconds",
                  idleWrites, settings.idleSeconds()));

          Double fanout = null;
          if (w.configMaps() > 0) {
            fanout = fanout(admin, deployments, () -> w.changeConfigMaps(admin, "v2"));
            progress.accept(
                String.format(
                    "fan-out: %d ConfigMaps changed, every pod on the new hash in %.2f s",
                    w.configMaps(), fanout));
          }

          double cpuTotal = operator.cpuSeconds();
          long peakRss = operator.peakRssBytes();
          OptionalLong heap =
              subject.jvm() ? operator.heapAfterFullGcBytes() : OptionalLong.empty();
          operator.close();
          progress.accept(
              String.format(
                  "operator CPU %.2f s in all, peak RSS %.0f MiB, heap after full GC %s",
                  cpuTotal,
                  peakRss / 1048576.0,
                  heap.isPresent()
                      ? String.format("%.1f MiB", heap.getAsLong() / 1048576.0)
                      : "n/a"));

          List<Restart> restarts = new ArrayList<>();
          for (int i = 0; i < settings.restarts(); i++) {
            Restart each = restart(subject, bench, metrics, port);
            restarts.add(each);
            progress.accept(
                String.format(
                    "restart with %d objects: ready %.2f s, first reconcile %.2f s,"
                        + " all reconciled %.2f s after start; %d writes, %d reads",
                    w.objects(),
                    each.toReady(),
                    each.toFirstReconcile(),
                    each.toAllReconciled(),
                    each.writes(),
                    each.reads()));
          }
          // The median by the figure the goal is about: caches synced to first reconcile.
          List<Restart> byGap = new ArrayList<>(restarts);
          byGap.sort(Comparator.comparingDouble(Restart::syncedToFirstReconcile));
          Restart restart = byGap.get(byGap.size() / 2);

          return new RunFigures(
              subject.mode(),
              w.objects(),
              w.replicas(),
              w.namespaces(),
              clusterStart,
              converge,
              w.objects() / converge,
              running.doneSeconds(),
              converged.clientWrites(),
              converged.clientReads(),
              watches(converged),
              converged.otherWrites(),
              converged.otherReads(),
              converged.clientWrites() / (double) w.objects(),
              converged.clientReads() / (double) w.objects(),
              byRequest(converged),
              settings.idleSeconds(),
              idleWrites,
              w.configMaps(),
              fanout,
              cpuConverge,
              cpuConverge * 1000 / w.objects(),
              cpuTotal,
              peakRss / 1048576.0,
              heap.isPresent() ? heap.getAsLong() / 1048576.0 : null,
              heap.isPresent() ? heap.getAsLong() / 1024.0 / w.objects() : null,
              toReady,
              restart.toReady(),
              restart.toFirstReconcile(),
              restart.toAllReconciled(),
              restart.writes(),
              restart.reads(),
              restarts.stream().map(Restart::syncedToFirstReconcile).toList(),
              reconciles,
              cpuByThread,
              controlPlaneCpu,
              createLag,
              runningLag);
        } finally {
          operator.close(); // stopped already unless something failed on the way
        }
      } finally {
        apps.close();
        deployments.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("benchmark interrupted", e);
    }
  }

  /**
   * What a dry-run pass costs: the example operator converges every AppDeployment and stops, every
   * AppDeployment then gets a new image (as while an operator is down), and the example runs one
   * dry-run pass in this JVM on the measured client: every Deployment would change. Measures the
   * pass's time, the requests it sent (counted by the API server), the heap after a full GC with
   * the report held, and the peak heap during the pass (garbage included).
   */
  public DryRunFigures dryRunPass() {
    Workload w = settings.workload();
    try (BenchCluster bench = BenchCluster.start(settings.crd(), maxPods(), settings.workDir())) {
      KubernetesClient admin = bench.admin();
      ApiServerMetrics metrics = bench.metrics();
      w.prepare(admin);
      ConvergenceTracker<GenericKubernetesResource> running =
          new ConvergenceTracker<>(w.keys(), Rollout::running);
      SharedIndexInformer<GenericKubernetesResource> apps =
          admin.genericKubernetesResources(APP_DEPLOYMENTS).inAnyNamespace().inform(running);
      try {
        Operator real = new AppOperator().operator(b -> b.client(admin));
        real.start();
        try {
          running.start();
          Workload.inParallel(
              w.items(),
              item ->
                  admin
                      .genericKubernetesResources(APP_DEPLOYMENTS)
                      .inNamespace(item.namespace())
                      .resource(w.appDeployment(item))
                      .create());
          double converge = running.awaitAll(convergeTimeout(), "Running");
          progress.accept(
              String.format(
                  "%d AppDeployments Running in %.2f s (real run)", w.objects(), converge));
        } finally {
          real.stop();
        }
        String image = w.image() + "-next";
        Workload.inParallel(
            w.items(),
            item ->
                admin
                    .genericKubernetesResources(APP_DEPLOYMENTS)
                    .inNamespace(item.namespace())
                    .withName(item.name())
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"image\":\"" + image + "\"}}"));
        long heapBefore = heapAfterFullGc();
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
        MetricsSnapshot before = metrics.snapshot();
        long began = System.nanoTime();
        DryRunReport report;
        try (KubernetesClient measured = bench.newMeasuredClient()) {
          report =
              new AppOperator()
                  .operator(b -> b.client(measured).dryRun(true))
                  .dryRunPass(convergeTimeout());
        }
        try {
          double seconds = (System.nanoTime() - began) / 1e9;
          MetricsSnapshot pass = metrics.snapshot().since(before);
          long peak =
              ManagementFactory.getMemoryPoolMXBeans().stream()
                  .filter(pool -> pool.getType() == MemoryType.HEAP)
                  .mapToLong(pool -> pool.getPeakUsage().getUsed())
                  .sum();
          long heapAfter = heapAfterFullGc();
          DryRunFigures figures =
              new DryRunFigures(
                  w.objects(),
                  w.replicas(),
                  seconds,
                  pass.clientWrites(),
                  pass.clientReads(),
                  report.reconciled(),
                  report.wouldChange(),
                  report.unchanged(),
                  report.wouldBeRefused(),
                  report.entries().size(),
                  (heapAfter - heapBefore) / 1048576.0,
                  peak / 1048576.0);
          return figures;
        } finally {
          Reference.reachabilityFence(report); // held until the heap was read
        }
      } finally {
        apps.close();
      }
    }
  }

  /** The heap in use after a full collection, as this JVM reports it. */
  private static long heapAfterFullGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * The figures of one dry-run pass.
   *
   * @param objects AppDeployments
   * @param replicas pods of each
   * @param seconds from building the dry-run operator to its report
   * @param writes write requests the pass sent (every one a dry run)
   * @param reads read requests the pass sent (lists and watches of its caches, a GET per write)
   * @param reconciled primaries the pass reconciled
   * @param wouldChange objects the report says would change
   * @param unchanged objects the report says would not change
   * @param refused objects the report says would be refused
   * @param entries entries of the report
   * @param heapHeldMib heap after a full GC with the report held, less the heap before the pass
   * @param heapPeakMib the heap pools' peak use during the pass, garbage included
   */
  public record DryRunFigures(
      int objects,
      int replicas,
      double seconds,
      long writes,
      long reads,
      int reconciled,
      int wouldChange,
      int unchanged,
      int refused,
      int entries,
      double heapHeldMib,
      double heapPeakMib) {

    /** The figures as the lines {@code bin/bench} prints. */
    public String text() {
      return String.format(
          "dry-run pass over %d AppDeployments (%d replicas): %.2f s, %d writes (dry runs) and"
              + " %d reads sent; %d reconciled, %d would change, %d unchanged, %d refused,"
              + " %d report entries; heap held after the pass %.1f MiB, peak heap during it"
              + " %.0f MiB (garbage included)",
          objects,
          replicas,
          seconds,
          writes,
          reads,
          reconciled,
          wouldChange,
          unchanged,
          refused,
          entries,
          heapHeldMib,
          heapPeakMib);
    }
  }

  /** The floor: the same Deployments and Services written by a raw client at full concurrency. */
  public RunFigures floor() {
    Workload w = settings.workload();
    long clusterBegan = System.nanoTime();
    try (BenchCluster bench = BenchCluster.start(settings.crd(), maxPods(), settings.workDir());
        KubernetesClient client = bench.newMeasuredClient()) {
      double clusterStart = (System.nanoTime() - clusterBegan) / 1e9;
      KubernetesClient admin = bench.admin();
      ApiServerMetrics metrics = bench.metrics();
      w.prepare(admin);
      progress.accept(String.format("floor run: cluster ready in %.1f s", clusterStart));
      ConvergenceTracker<Deployment> rolledOut =
          new ConvergenceTracker<>(w.keys(), Rollout::complete);
      SharedIndexInformer<Deployment> deployments =
          admin.apps().deployments().inAnyNamespace().inform(rolledOut);
      try {
        MetricsSnapshot before = metrics.snapshot();
        Map<String, Double> controlPlaneBefore = ControlPlaneCpu.snapshot();
        Map<String, Long> sent = new ConcurrentHashMap<>();
        rolledOut.start();
        Workload.inParallel(
            w.items(),
            item -> {
              AppDeployment app = app(item, w);
              sent.put(item.key(), System.nanoTime());
              client
                  .apps()
                  .deployments()
                  .inNamespace(item.namespace())
                  .resource(DesiredDeployment.of(app, hash(item, "v1")))
                  .create();
              client
                  .services()
                  .inNamespace(item.namespace())
                  .resource(DesiredService.of(app))
                  .create();
            });
        double converge = rolledOut.awaitAll(convergeTimeout(), "rolled out");
        Map<String, Double> controlPlaneCpu =
            OperatorProcess.difference(controlPlaneBefore, ControlPlaneCpu.snapshot());
        MetricsSnapshot converged = metrics.snapshot().since(before);
        progress.accept(
            String.format(
                "floor: %d Deployments and Services rolled out in %.2f s with %d writes",
                w.objects(), converge, converged.clientWrites()));
        Double fanout = null;
        if (w.configMaps() > 0) {
          fanout =
              fanout(
                  admin,
                  deployments,
                  () -> {
                    w.changeConfigMaps(admin, "v2");
                    Workload.inParallel(
                        w.withConfigMaps(),
                        item ->
                            client
                                .apps()
                                .deployments()
                                .inNamespace(item.namespace())
                                .withName(item.name())
                                .patch(
                                    PatchContext.of(PatchType.JSON_MERGE),
                                    "{\"spec\":{\"template\":{\"metadata\":"
                                        + "{\"annotations\":{\""
                                        + AppLabels.CONFIG_HASH_ANNOTATION
                                        + "\":\""
                                        + hash(item, "v2").orElseThrow()
                                        + "\"}}}}}"));
                  });
          progress.accept(
              String.format(
                  "floor fan-out: %d ConfigMaps and Deployments changed, rolled in %.2f s",
                  w.configMaps(), fanout));
        }
        return new RunFigures(
            "floor",
            w.objects(),
            w.replicas(),
            w.namespaces(),
            clusterStart,
            converge,
            w.objects() / converge,
            rolledOut.doneSeconds(),
            converged.clientWrites(),
            converged.clientReads(),
            watches(converged),
            converged.otherWrites(),
            converged.otherReads(),
            converged.clientWrites() / (double) w.objects(),
            converged.clientReads() / (double) w.objects(),
            byRequest(converged),
            null,
            null,
            w.configMaps(),
            fanout,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(),
            null,
            Map.of(),
            controlPlaneCpu,
            null,
            Lags.between(sent, rolledOut.doneAtNanos()));
      } finally {
        deployments.close();
      }
    }
  }

  /** Runs {@code change}, then waits until every fanned-out Deployment rolled to a new hash. */
  private double fanout(
      KubernetesClient admin, SharedIndexInformer<Deployment> deployments, Runnable change) {
    Workload w = settings.workload();
    Map<String, String> oldHash = new HashMap<>();
    for (Workload.Item item : w.withConfigMaps()) {
      Deployment d =
          admin.apps().deployments().inNamespace(item.namespace()).withName(item.name()).get();
      oldHash.put(item.key(), Rollout.templateAnnotation(d, AppLabels.CONFIG_HASH_ANNOTATION));
    }
    ConvergenceTracker<Deployment> rolled =
        new ConvergenceTracker<>(
            oldHash.keySet(),
            d -> {
              String key = d.getMetadata().getNamespace() + "/" + d.getMetadata().getName();
              return !Rollout.templateAnnotation(d, AppLabels.CONFIG_HASH_ANNOTATION)
                      .equals(oldHash.get(key))
                  && Rollout.complete(d);
            });
    rolled.start();
    deployments.addEventHandler(rolled);
    change.run();
    return rolled.awaitAll(convergeTimeout(), "rolled to the new ConfigMap hash");
  }

  private record Restart(
      double toReady, double toFirstReconcile, double toAllReconciled, long writes, long reads) {
    double syncedToFirstReconcile() {
      return toFirstReconcile - toReady;
    }
  }

  /**
   * Starts the operator again with every object in place: start-up to caches and first reconcile.
   */
  private Restart restart(
      OperatorUnderTest subject, BenchCluster bench, ApiServerMetrics metrics, Ports port)
      throws InterruptedException {
    MetricsSnapshot before = metrics.snapshot();
    try (OperatorProcess operator =
        startOperator(subject, bench, port, subject.mode() + "-restart.log")) {
      double ready = -1;
      double first = -1;
      long deadline = System.nanoTime() + convergeTimeout().toNanos();
      int objects = settings.workload().objects();
      while (true) {
        long now = System.nanoTime();
        if (ready < 0 && operator.ready()) {
          ready = operator.secondsSinceStart(now);
        }
        OptionalLong reconciles = ready < 0 ? OptionalLong.empty() : operator.reconciles();
        if (first < 0 && reconciles.isPresent() && reconciles.getAsLong() > 0) {
          first = operator.secondsSinceStart(now);
        }
        if (reconciles.isPresent() && reconciles.getAsLong() >= objects) {
          MetricsSnapshot during = metrics.snapshot().since(before);
          return new Restart(
              ready,
              first,
              operator.secondsSinceStart(now),
              during.clientWrites(),
              during.clientReads());
        }
        if (now > deadline) {
          throw new IllegalStateException(
              "the restarted operator did not reconcile all "
                  + objects
                  + " AppDeployments within "
                  + convergeTimeout().toSeconds()
                  + " s (ready: "
                  + (ready >= 0)
                  + "); its output is in "
                  + operator.log());
        }
        TimeUnit.MILLISECONDS.sleep(10);
      }
    }
  }

  private Path startupArchive(OperatorUnderTest subject) {
    return settings.workDir().resolve(archiveKind(subject).fileName()).toAbsolutePath();
  }

  private static StartupArchive archiveKind(OperatorUnderTest subject) {
    return StartupArchive.forLauncher(subject.command().get(0));
  }

  /**
   * Starts the operator on the empty cluster with the option that writes its start-up archive
   * ({@link StartupArchive}), waits until its caches sync and stops it: its JVM writes what the
   * start loaded into the archive that the measured starts map.
   */
  private void trainStartupArchive(OperatorUnderTest subject, BenchCluster bench, Ports port)
      throws InterruptedException {
    Path archive = startupArchive(subject);
    try {
      Files.deleteIfExists(archive);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (OperatorProcess training =
        startOperator(
            subject,
            bench,
            port,
            subject.mode() + "-training.log",
            archiveKind(subject).writeOption(archive))) {
      awaitReady(training, subject);
    }
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException(
          "the training start wrote no archive at "
              + archive
              + " (does the operator command have "
              + BenchSettings.CDS
              + "?); its output is in "
              + settings.workDir().resolve("operator-training.log"));
    }
    progress.accept(
        String.format(
            "start-up archive trained: %s, %.1f MiB",
            archive, archive.toFile().length() / 1048576.0));
  }

  private OperatorProcess startOperator(
      OperatorUnderTest subject, BenchCluster bench, Ports port, String logName) {
    return startOperator(
        subject,
        bench,
        port,
        logName,
        subject.startupArchive() ? archiveKind(subject).useOption(startupArchive(subject)) : null);
  }

  /**
   * Starts the operator command, its {@value BenchSettings#CDS} argument {@code cds} or dropped.
   */
  private OperatorProcess startOperator(
      OperatorUnderTest subject, BenchCluster bench, Ports port, String logName, String cds) {
    List<String> command =
        subject.command().stream()
            .filter(arg -> cds != null || !arg.equals(BenchSettings.CDS))
            .map(arg -> arg.equals(BenchSettings.CDS) ? cds : arg)
            .map(
                arg ->
                    OperatorUnderTest.replacePorts(
                            arg.replace("{kubeconfig}", bench.clientKubeconfig().toString()),
                            port.http(),
                            port.metrics())
                        .replace("{name}", logName.replace(".log", "")))
            .toList();
    return OperatorProcess.start(
        command,
        subject.readyUri(port.http(), port.metrics()),
        subject.metricsUri(port.http(), port.metrics()),
        subject.reconcileMetric(),
        settings.workDir().resolve(logName));
  }

  private double awaitReady(OperatorProcess operator, OperatorUnderTest subject)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!operator.ready()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the operator was not ready within 120 s at "
                + subject.readyUrl()
                + "; its output is in "
                + operator.log());
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    return operator.secondsSinceStart(System.nanoTime());
  }

  private static AppDeployment app(Workload.Item item, Workload w) {
    return AppDeployment.of(
        item.namespace(),
        item.name(),
        new AppDeploymentSpec(w.image(), w.replicas(), item.configMap(), null));
  }

  private static Optional<String> hash(Workload.Item item, String version) {
    return item.hasConfigMap()
        ? Optional.of(ConfigHash.of(Workload.configData(version), Map.of()))
        : Optional.empty();
  }

  private static long watches(MetricsSnapshot snapshot) {
    return snapshot.client().entrySet().stream()
        .filter(e -> e.getKey().verb().equals("watch"))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  private static Map<String, Long> byRequest(MetricsSnapshot snapshot) {
    Map<String, Long> out = new TreeMap<>();
    snapshot.client().forEach((key, count) -> out.put(key.toString(), count));
    return out;
  }

  /** The operator's HTTP port and, for an operator that serves metrics apart, its metrics port. */
  private record Ports(int http, int metrics) {
    static Ports free() {
      int http = freePort();
      int metrics = freePort();
      while (metrics == http) {
        metrics = freePort();
      }
      return new Ports(http, metrics);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port for the operator's HTTP server", e);
    }
  }
}
