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
        Map.of("kube-apiserver", 30.0, "etcd", 5.0));
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
        Map.of("kube-apiserver", 20.0, "etcd", 4.0, "kwok", 1.5));
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
}
