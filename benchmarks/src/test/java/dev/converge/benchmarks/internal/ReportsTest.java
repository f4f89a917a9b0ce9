package dev.converge.benchmarks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportsTest {

  private static RunFigures operator(int objects, double seconds, double cpu, double heapMiB) {
    return operator(objects, seconds, cpu, heapMiB, List.of(0.5));
  }

  private static RunFigures operator(
      int objects, double seconds, double cpu, double heapMiB, List<Double> restarts) {
    return new RunFigures(
        "operator",
        objects,
        0,
        1,
        5,
        seconds,
        objects / seconds,
        List.of(seconds),
        4L * objects,
        0,
        0,
        100,
        2,
        4,
        0,
        Map.of("create services", (long) objects),
        60,
        0L,
        10,
        1.5,
        cpu,
        cpu * 1000 / objects,
        cpu + 3,
        250.0,
        heapMiB,
        heapMiB * 1024 / objects,
        3.0,
        3.0,
        3.5,
        4.0,
        0L,
        4L,
        restarts,
        3.0,
        Map.of("converge-worker-N", cpu * 0.6, "C2 CompilerThreN", cpu * 0.3),
        Map.of("kube-apiserver", 30.0, "etcd", 5.0),
        null,
        null);
  }

  private static RunFigures floor(int objects, double seconds) {
    return new RunFigures(
        "floor",
        objects,
        0,
        1,
        5,
        seconds,
        objects / seconds,
        List.of(seconds),
        2L * objects,
        0,
        0,
        100,
        2,
        2,
        0,
        Map.of(),
        null,
        null,
        10,
        1.0,
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
        Map.of("kube-apiserver", 20.0, "etcd", 4.0, "kwok", 1.5),
        null,
        null);
  }

  @Test
  void severalRestartsShowTheMedianRestartAndEachOnesTimeFromSyncToFirstReconcile() {
    // The figures given are the median restart's: ready 3.0 s, first reconcile 3.5 s.
    String several =
        Reports.table(
            List.of(operator(1000, 51, 20, 60, List.of(0.9, 0.5, 0.25)), floor(1000, 50)));
    assertThat(several)
        .contains(
            "| restart: caches synced to first reconcile (s) | 0.50 (median of 3: 0.90, 0.50, 0.25) | – |");
    String one = Reports.table(List.of(operator(1000, 51, 20, 60), floor(1000, 50)));
    assertThat(one).contains("| restart: caches synced to first reconcile (s) | 0.50 | – |");
  }

  @Test
  void theTableShowsEveryRunAsAColumnWithItsRatioToTheFloorOfTheSameSize() {
    String table = Reports.table(List.of(operator(1000, 51, 20, 60), floor(1000, 50)));
    assertThat(table).startsWith("|  | operator 1000×0 | floor 1000×0 |\n|---|---|---|\n");
    assertThat(table).contains("| ratio to the floor | 1.02× | 1.00× |");
    assertThat(table).contains("| client writes (per object) | 4000 (4.00) | 2000 (2.00) |");
    assertThat(table).contains("| writes in idle seconds | 0 in 60 s | – |");
    assertThat(table).contains("| control plane CPU while converging (s) | 35.00 | 25.50 |");
    assertThat(table).contains("| — kube-apiserver | 30.00 | 20.00 |");
    assertThat(table).contains("| — kwok | – | 1.50 |");
  }

  @Test
  void theCostOfAnAdditionalAppDeploymentIsTheDifferenceBetweenSizes() {
    // 9,000 more objects cost 90 s more CPU and 450 MiB more heap: 10 ms and 51.2 KiB each
    String marginal =
        Reports.marginal(
            List.of(operator(10_000, 200, 100, 500), floor(1000, 50), operator(1000, 51, 10, 50)));
    assertThat(marginal).contains("| 1000 → 10000 (replicas 0) | 10.0 | 51.2 |");
  }

  @Test
  void cpuByThreadListsTheGroupsOfTheOperatorRunsWithTheirShareOfItsCpu() {
    // worker 12 s of 20 (60%), compiler 6 s (30%); the floor measured no threads: no column
    String threads = Reports.threads(List.of(operator(1000, 51, 20, 60), floor(1000, 50)));
    assertThat(threads)
        .isEqualTo(
            """

                | operator CPU while converging, by thread (s) | 1000×0 |
                |---|---|
                | `converge-worker-N` | 12.00 (60%) |
                | `C2 CompilerThreN` | 6.00 (30%) |
                """);
    assertThat(Reports.threads(List.of(floor(1000, 50)))).isEmpty();
  }

  /** A Go peer run: the operator's figures with the given CPU, RSS and lags. */
  private static RunFigures go(int objects, double seconds, double cpu, Lags running) {
    RunFigures o = operator(objects, seconds, cpu, 60);
    return new RunFigures(
        Reports.PEER_MODE,
        o.objects(),
        o.replicas(),
        o.namespaces(),
        o.clusterStartSeconds(),
        o.convergeSeconds(),
        o.objectsPerSecond(),
        o.runningOverTime(),
        2L * objects,
        o.clientReads(),
        o.clientWatches(),
        o.otherWrites(),
        o.otherReads(),
        2,
        o.readsPerObject(),
        o.clientRequests(),
        o.idleSeconds(),
        o.idleWrites(),
        o.fanoutConfigMaps(),
        o.fanoutSeconds(),
        cpu,
        cpu * 1000 / objects,
        cpu + 1,
        50.0,
        null,
        null,
        0.5,
        0.5,
        0.6,
        1.0,
        0L,
        2L,
        List.of(0.1),
        1.0,
        Map.of("app-operator-go", cpu),
        Map.of("kube-apiserver", 30.0, "etcd", 5.0),
        Lags.of(List.of(0.1, 0.2)),
        running);
  }

  @Test
  void aGoPeerRunIsFollowedByTheRatioOfTheOperatorsFiguresToItsOwn() {
    RunFigures operator =
        withLags(operator(1000, 51, 20, 60), Lags.of(List.of(0.2, 0.4)), Lags.of(List.of(2.0)));
    RunFigures go = go(1000, 50, 10, Lags.of(List.of(1.0)));
    String table = Reports.table(List.of(operator, go, floor(1000, 50)));
    assertThat(table)
        .startsWith(
            """
            |  | operator 1000×0 | go 1000×0 | Converge/Go 1000×0 | floor 1000×0 |
            |---|---|---|---|---|
            """);
    // writes 4 per object against 2; CPU 20 s against 10 s; peak RSS 250 MiB against 50
    assertThat(table)
        .contains("| client writes (per object) | 4000 (4.00) | 2000 (2.00) | 2.00× |");
    assertThat(table).contains("| operator CPU while converging (s) | 20.00 | 10.00 | 2.00× |");
    assertThat(table).contains("| peak RSS (MiB) | 250 | 50 | 5.00× |");
    assertThat(table)
        .contains("| start to caches synced, empty cluster (s) | 3.00 | 0.50 | 6.00× |");
    // the lags' percentiles, each with its ratio; the floor has no create lag
    assertThat(table)
        .contains(
            "| create lag p50 / p90 / p99 / max (s) | 0.20 / 0.40 / 0.40 / 0.40"
                + " | 0.10 / 0.20 / 0.20 / 0.20 | 2.00× / 2.00× / 2.00× / 2.00× | – |");
    assertThat(table)
        .contains(
            "| Running lag p50 / p90 / p99 / max (s) | 2.00 / 2.00 / 2.00 / 2.00"
                + " | 1.00 / 1.00 / 1.00 / 1.00 | 2.00× / 2.00× / 2.00× / 2.00× | – |");
    // a figure only the JVM has gets no ratio
    assertThat(table).contains("| heap after full GC (MiB) | 60.0 | – |  | – |");
  }

  @Test
  void theCostOfAnAdditionalAppDeploymentIsComparedWithTheGoPeersBetweenTheSameSizes() {
    // Converge: 90 s more for 9,000 more (10 ms each); Go: 45 s more (5 ms each)
    String marginal =
        Reports.marginal(
            List.of(
                operator(10_000, 200, 100, 500),
                operator(1000, 51, 10, 50),
                go(1000, 50, 5, null),
                go(10_000, 150, 50, null)));
    assertThat(marginal)
        .contains(
            "| per additional AppDeployment, between sizes | CPU (ms) | heap after full GC (KiB) |"
                + " Go CPU (ms) | Converge/Go |")
        .contains("| 1000 → 10000 (replicas 0) | 10.0 | 51.2 | 5.0 | 2.00× |");
  }

  @Test
  void lagsAreNearestRankPercentilesOfEachObjectsWaitFromItsCreate() {
    // ten objects sent at 0 s, done after 1..10 s; one more done but never sent by this run
    Map<String, Long> sent = new java.util.HashMap<>();
    Map<String, Long> done = new java.util.HashMap<>();
    for (int i = 1; i <= 10; i++) {
      sent.put("ns/app-" + i, 1_000_000_000L);
      done.put("ns/app-" + i, 1_000_000_000L + i * 1_000_000_000L);
    }
    done.put("ns/other", 5L);
    assertThat(Lags.between(sent, done)).isEqualTo(new Lags(10, 5.0, 9.0, 10.0, 10.0));
    assertThat(Lags.between(sent, Map.of())).isNull();
  }

  private static RunFigures withLags(RunFigures r, Lags create, Lags running) {
    return new RunFigures(
        r.mode(),
        r.objects(),
        r.replicas(),
        r.namespaces(),
        r.clusterStartSeconds(),
        r.convergeSeconds(),
        r.objectsPerSecond(),
        r.runningOverTime(),
        r.clientWrites(),
        r.clientReads(),
        r.clientWatches(),
        r.otherWrites(),
        r.otherReads(),
        r.writesPerObject(),
        r.readsPerObject(),
        r.clientRequests(),
        r.idleSeconds(),
        r.idleWrites(),
        r.fanoutConfigMaps(),
        r.fanoutSeconds(),
        r.cpuSecondsConverge(),
        r.cpuMsPerObject(),
        r.cpuSecondsTotal(),
        r.peakRssMiB(),
        r.heapAfterGcMiB(),
        r.heapKiBPerObject(),
        r.startToReadySeconds(),
        r.restartToReadySeconds(),
        r.restartToFirstReconcileSeconds(),
        r.restartToAllReconciledSeconds(),
        r.restartWrites(),
        r.restartReads(),
        r.restartsSyncedToFirstReconcile(),
        r.reconcilesPerObject(),
        r.cpuSecondsByThread(),
        r.controlPlaneCpuSeconds(),
        create,
        running);
  }
}
