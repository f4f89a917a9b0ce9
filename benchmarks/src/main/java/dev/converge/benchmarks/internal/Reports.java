package dev.converge.benchmarks.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a run's figures as JSON, a markdown table and PNG plots, and the summary over every run in
 * a results folder.
 */
public final class Reports {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final Path folder;

  public Reports(Path folder) {
    this.folder = folder;
  }

  /** The file name stem of a size: {@code n300-r1}. */
  public static String stem(int objects, int replicas) {
    return "n" + objects + "-r" + replicas;
  }

  /**
   * Writes {@code <stem>.json}, {@code <stem>.md} and {@code <stem>-running.png}; returns the
   * table.
   */
  public String write(String stem, String machine, List<RunFigures> runs) {
    try {
      Files.createDirectories(folder);
      Files.writeString(folder.resolve(stem + ".json"), JSON.writeValueAsString(runs));
      String table = "Machine: " + machine + "\n\n" + table(runs) + threads(runs);
      Files.writeString(folder.resolve(stem + ".md"), table);
      LineChart chart =
          new LineChart(
              "Objects done over time (" + stem + ")",
              "seconds since the first create",
              "objects Running / rolled out",
              false);
      for (RunFigures run : runs) {
        List<double[]> points = new ArrayList<>();
        points.add(new double[] {0, 0});
        List<Double> done = run.runningOverTime();
        for (int i = 0; i < done.size(); i++) {
          points.add(new double[] {done.get(i), i + 1});
        }
        chart.add(new LineChart.Series(run.mode(), points));
      }
      chart.write(folder.resolve(stem + "-running.png"));
      return table;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write results to " + folder, e);
    }
  }

  /**
   * Reads every {@code n*.json} of the folder and writes {@code summary.md} and {@code heap.png}.
   */
  public String summarize() {
    List<RunFigures> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file :
          files.filter(p -> p.getFileName().toString().matches("n\\d+-r\\d+\\.json")).toList()) {
        all.addAll(JSON.readValue(file.toFile(), new TypeReference<List<RunFigures>>() {}));
      }
      all.sort(
          Comparator.comparingInt(RunFigures::objects)
              .thenComparingInt(RunFigures::replicas)
              .thenComparing(RunFigures::mode, Comparator.reverseOrder()));
      String table = table(all) + "\n" + marginal(all);
      Files.writeString(folder.resolve("summary.md"), table);
      List<double[]> heap =
          all.stream()
              .filter(r -> r.heapAfterGcMiB() != null)
              .map(r -> new double[] {r.objects(), r.heapAfterGcMiB()})
              .sorted(Comparator.comparingDouble(p -> p[0]))
              .toList();
      if (!heap.isEmpty()) {
        new LineChart("Operator heap after a full GC", "AppDeployments", "MiB", true)
            .add(new LineChart.Series("operator heap after full GC", heap))
            .write(folder.resolve("heap.png"));
      }
      return table;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot summarize the results in " + folder, e);
    }
  }

  /**
   * Replaces the part of {@code readme} between {@code <!-- results:start -->} and {@code <!--
   * results:end -->} with the machine line of every size, the summary table and the plots.
   */
  public void updateReadme(Path readme, String summary) {
    String start = "<!-- results:start -->";
    String end = "<!-- results:end -->";
    try {
      String text = Files.readString(readme);
      int a = text.indexOf(start);
      int b = text.indexOf(end);
      if (a < 0 || b < a) {
        throw new IllegalStateException(
            readme
                + " has no section between "
                + start
                + " and "
                + end
                + "; add the two markers where the results belong");
      }
      Path base = readme.toAbsolutePath().getParent().relativize(folder.toAbsolutePath());
      StringBuilder section = new StringBuilder(start).append("\n");
      List<Path> tables;
      try (Stream<Path> files = Files.list(folder)) {
        tables =
            files
                .filter(p -> p.getFileName().toString().matches("n\\d+-r\\d+\\.md"))
                .sorted(
                    Comparator.comparingInt(
                            (Path p) ->
                                Integer.parseInt(
                                    p.getFileName().toString().replaceAll("^n(\\d+)-.*", "$1")))
                        .thenComparing(Path::toString))
                .toList();
      }
      for (Path table : tables) {
        String stem = table.getFileName().toString().replace(".md", "");
        String machine = Files.readAllLines(table).get(0).replaceFirst("^Machine: ", "");
        section.append("- `").append(stem).append("`: ").append(machine).append("\n");
      }
      section.append("\n").append(summary).append("\n");
      for (Path table : tables) {
        String stem = table.getFileName().toString().replace(".md", "");
        section
            .append("![")
            .append(stem)
            .append(": objects done over time](")
            .append(base.resolve(stem + "-running.png"))
            .append(")\n");
      }
      if (Files.exists(folder.resolve("heap.png"))) {
        section
            .append("![operator heap after a full GC over objects](")
            .append(base.resolve("heap.png"))
            .append(")\n");
      }
      Files.writeString(readme, text.substring(0, a) + section + text.substring(b));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot update " + readme, e);
    }
  }

  /** The mode of the Go controller-runtime peer's runs. */
  public static final String PEER_MODE = "go";

  /**
   * One line of the table: how each run's figure reads, and the numbers whose quotients the ratio
   * column shows (null when the row has no ratio, or the run lacks the figure).
   */
  private record Row(
      String label, Function<RunFigures, String> cell, Function<RunFigures, double[]> values) {
    Row(String label, Function<RunFigures, String> cell) {
      this(label, cell, r -> null);
    }
  }

  /**
   * A column of the table: a run's figures, or with {@code peer} the ratio of the operator run
   * {@code run} to the Go peer's run of the same size.
   */
  private record Column(RunFigures run, RunFigures peer) {
    String header() {
      String size = run.objects() + "×" + run.replicas();
      return peer == null ? run.mode() + " " + size : "Converge/Go " + size;
    }

    String cell(Row row) {
      if (peer == null) {
        return row.cell().apply(run);
      }
      double[] converge = row.values().apply(run);
      double[] go = row.values().apply(peer);
      if (converge == null || go == null) {
        return "";
      }
      List<String> ratios = new ArrayList<>();
      for (int i = 0; i < converge.length; i++) {
        ratios.add(
            go[i] == 0 || !Double.isFinite(converge[i] / go[i])
                ? "–"
                : f2(converge[i] / go[i]) + "×");
      }
      return String.join(" / ", ratios);
    }
  }

  /**
   * One column per run; the floor's figures follow the operator's of the same size, and after a Go
   * peer's column comes the ratio of the operator's figures to the peer's (Converge/Go: below 1,
   * Converge needs less).
   */
  public static String table(List<RunFigures> runs) {
    List<Row> rows = new ArrayList<>();
    rows.add(
        row(
            "time until all Running (s)",
            r -> f2(r.convergeSeconds()),
            r -> one(r.convergeSeconds())));
    rows.add(
        new Row(
            "ratio to the floor",
            r ->
                floorOf(r, runs) == null
                    ? "–"
                    : f2(r.convergeSeconds() / floorOf(r, runs).convergeSeconds()) + "×"));
    rows.add(new Row("objects per second", r -> f1(r.objectsPerSecond())));
    rows.add(
        row(
            "create lag p50 / p90 / p99 / max (s)",
            r -> lags(r.createLag()),
            r -> lagValues(r.createLag())));
    rows.add(
        row(
            "Running lag p50 / p90 / p99 / max (s)",
            r -> lags(r.runningLag()),
            r -> lagValues(r.runningLag())));
    rows.add(
        row(
            "client writes (per object)",
            r -> r.clientWrites() + " (" + f2(r.writesPerObject()) + ")",
            r -> one(r.writesPerObject())));
    rows.add(
        row(
            "client reads (per object)",
            r -> r.clientReads() + " (" + f2(r.readsPerObject()) + ")",
            r -> one(r.readsPerObject())));
    rows.add(
        new Row("client watches opened while converging", r -> Long.toString(r.clientWatches())));
    rows.add(
        new Row("everyone else's writes / reads", r -> r.otherWrites() + " / " + r.otherReads()));
    rows.add(
        new Row(
            "writes in idle seconds",
            r -> r.idleWrites() == null ? "–" : r.idleWrites() + " in " + r.idleSeconds() + " s"));
    rows.add(
        row(
            "ConfigMap fan-out: every pod on the new hash (s)",
            r ->
                r.fanoutSeconds() == null
                    ? "–"
                    : f2(r.fanoutSeconds()) + " (" + r.fanoutConfigMaps() + ")",
            r -> one(r.fanoutSeconds())));
    rows.add(
        row(
            "reconciles per AppDeployment while converging",
            r -> opt(r.reconcilesPerObject(), 2),
            r -> one(r.reconcilesPerObject())));
    rows.add(
        row(
            "control plane CPU while converging (s)",
            r -> r.controlPlaneCpuSeconds().isEmpty() ? "–" : f2(controlPlaneCpu(r)),
            r -> r.controlPlaneCpuSeconds().isEmpty() ? null : one(controlPlaneCpu(r))));
    for (String component : ControlPlaneCpu.COMPONENTS) {
      if (runs.stream().anyMatch(r -> r.controlPlaneCpuSeconds().containsKey(component))) {
        rows.add(
            row(
                "— " + component,
                r -> opt(r.controlPlaneCpuSeconds().get(component), 2),
                r -> one(r.controlPlaneCpuSeconds().get(component))));
      }
    }
    rows.add(
        row(
            "operator CPU while converging (s)",
            r -> opt(r.cpuSecondsConverge(), 2),
            r -> one(r.cpuSecondsConverge())));
    rows.add(
        row(
            "CPU per AppDeployment (ms)",
            r -> opt(r.cpuMsPerObject(), 1),
            r -> one(r.cpuMsPerObject())));
    rows.add(
        row(
            "operator CPU in all (s)",
            r -> opt(r.cpuSecondsTotal(), 2),
            r -> one(r.cpuSecondsTotal())));
    rows.add(row("peak RSS (MiB)", r -> opt(r.peakRssMiB(), 0), r -> one(r.peakRssMiB())));
    rows.add(new Row("heap after full GC (MiB)", r -> opt(r.heapAfterGcMiB(), 1)));
    rows.add(new Row("heap per AppDeployment (KiB)", r -> opt(r.heapKiBPerObject(), 1)));
    rows.add(
        row(
            "start to caches synced, empty cluster (s)",
            r -> opt(r.startToReadySeconds(), 2),
            r -> one(r.startToReadySeconds())));
    rows.add(
        row(
            "restart: start to caches synced (s)",
            r -> opt(r.restartToReadySeconds(), 2),
            r -> one(r.restartToReadySeconds())));
    rows.add(
        row(
            "restart: start to first reconcile (s)",
            r -> opt(r.restartToFirstReconcileSeconds(), 2),
            r -> one(r.restartToFirstReconcileSeconds())));
    rows.add(
        new Row("restart: caches synced to first reconcile (s)", Reports::syncedToFirstReconcile));
    rows.add(
        row(
            "restart: start to every object reconciled (s)",
            r -> opt(r.restartToAllReconciledSeconds(), 2),
            r -> one(r.restartToAllReconciledSeconds())));
    rows.add(
        row(
            "restart: writes / reads",
            r -> r.restartWrites() == null ? "–" : r.restartWrites() + " / " + r.restartReads(),
            r ->
                r.restartWrites() == null
                    ? null
                    : new double[] {r.restartWrites(), r.restartReads()}));

    List<Column> columns = columns(runs);
    StringBuilder out = new StringBuilder("| ");
    out.append(
        columns.stream().map(Column::header).collect(Collectors.joining(" | ", " | ", " |\n")));
    out.append("|---".repeat(columns.size() + 1)).append("|\n");
    for (Row row : rows) {
      out.append("| ").append(row.label());
      for (Column column : columns) {
        out.append(" | ").append(column.cell(row));
      }
      out.append(" |\n");
    }
    return out.toString();
  }

  /** Each run's column, and after a Go peer's the ratio of the same size's operator to it. */
  private static List<Column> columns(List<RunFigures> runs) {
    List<Column> columns = new ArrayList<>();
    for (RunFigures run : runs) {
      columns.add(new Column(run, null));
      if (run.mode().equals(PEER_MODE)) {
        runs.stream()
            .filter(
                r ->
                    r.mode().equals("operator")
                        && r.objects() == run.objects()
                        && r.replicas() == run.replicas())
            .findFirst()
            .ifPresent(operator -> columns.add(new Column(operator, run)));
      }
    }
    return columns;
  }

  private static Row row(
      String label, Function<RunFigures, String> cell, Function<RunFigures, double[]> values) {
    return new Row(label, cell, values);
  }

  private static double[] one(Number value) {
    return value == null ? null : new double[] {value.doubleValue()};
  }

  private static double controlPlaneCpu(RunFigures r) {
    return r.controlPlaneCpuSeconds().values().stream().mapToDouble(Double::doubleValue).sum();
  }

  private static String lags(Lags lags) {
    return lags == null
        ? "–"
        : f2(lags.p50()) + " / " + f2(lags.p90()) + " / " + f2(lags.p99()) + " / " + f2(lags.max());
  }

  private static double[] lagValues(Lags lags) {
    return lags == null ? null : new double[] {lags.p50(), lags.p90(), lags.p99(), lags.max()};
  }

  /**
   * The operator's CPU while converging by group of threads (one column per operator run, groups by
   * descending CPU), or nothing when no run measured it.
   */
  public static String threads(List<RunFigures> runs) {
    List<RunFigures> measured =
        runs.stream().filter(r -> !r.cpuSecondsByThread().isEmpty()).toList();
    if (measured.isEmpty()) {
      return "";
    }
    Map<String, Double> order = new HashMap<>();
    measured.forEach(r -> r.cpuSecondsByThread().forEach((k, v) -> order.merge(k, v, Double::sum)));
    StringBuilder out = new StringBuilder("\n| operator CPU while converging, by thread (s)");
    measured.forEach(
        r ->
            out.append(" | ")
                .append(r.mode().equals("operator") ? "" : r.mode() + " ")
                .append(r.objects())
                .append("×")
                .append(r.replicas()));
    out.append(" |\n").append("|---".repeat(measured.size() + 1)).append("|\n");
    order.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(
            e -> {
              out.append("| `").append(e.getKey()).append('`');
              for (RunFigures r : measured) {
                Double v = r.cpuSecondsByThread().get(e.getKey());
                double share = v == null ? 0 : 100 * v / r.cpuSecondsConverge();
                out.append(" | ")
                    .append(
                        v == null
                            ? "–"
                            : f2(v) + " (" + String.format(Locale.ROOT, "%.0f%%", share) + ")");
              }
              out.append(" |\n");
            });
    return out.toString();
  }

  /**
   * What each additional AppDeployment costs the operator between two sizes of the same replicas:
   * the difference of CPU while converging and of heap after a full GC, divided by the difference
   * of objects, so that what does not grow with the objects (start-up, caches of other kinds)
   * cancels.
   */
  public static String marginal(List<RunFigures> runs) {
    List<RunFigures> operator = measured(runs, "operator");
    List<RunFigures> peer = measured(runs, PEER_MODE);
    boolean withPeer = !peer.isEmpty();
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < operator.size(); i++) {
      RunFigures small = operator.get(i - 1);
      RunFigures large = operator.get(i);
      if (small.replicas() != large.replicas() || small.objects() == large.objects()) {
        continue;
      }
      if (out.length() == 0) {
        out.append(
                "| per additional AppDeployment, between sizes | CPU (ms) | heap after full GC (KiB) |")
            .append(withPeer ? " Go CPU (ms) | Converge/Go |\n" : "\n")
            .append("|---|---|---|")
            .append(withPeer ? "---|---|\n" : "\n");
      }
      int more = large.objects() - small.objects();
      String heap =
          small.heapAfterGcMiB() == null || large.heapAfterGcMiB() == null
              ? "–"
              : f1((large.heapAfterGcMiB() - small.heapAfterGcMiB()) * 1024 / more);
      double cpu = (large.cpuSecondsConverge() - small.cpuSecondsConverge()) * 1000 / more;
      out.append("| ")
          .append(small.objects())
          .append(" → ")
          .append(large.objects())
          .append(" (replicas ")
          .append(large.replicas())
          .append(") | ")
          .append(f1(cpu))
          .append(" | ")
          .append(heap);
      if (withPeer) {
        RunFigures goSmall = sameSize(peer, small);
        RunFigures goLarge = sameSize(peer, large);
        if (goSmall == null || goLarge == null) {
          out.append(" | – | –");
        } else {
          double goCpu =
              (goLarge.cpuSecondsConverge() - goSmall.cpuSecondsConverge()) * 1000 / more;
          out.append(" | ")
              .append(f1(goCpu))
              .append(" | ")
              .append(goCpu > 0 ? f2(cpu / goCpu) + "×" : "–");
        }
      }
      out.append(" |\n");
    }
    return out.toString();
  }

  /** The runs of {@code mode} that measured their CPU, by replicas and then objects. */
  private static List<RunFigures> measured(List<RunFigures> runs, String mode) {
    return runs.stream()
        .filter(r -> r.mode().equals(mode) && r.cpuSecondsConverge() != null)
        .sorted(Comparator.comparingInt(RunFigures::replicas).thenComparingInt(RunFigures::objects))
        .toList();
  }

  private static RunFigures sameSize(List<RunFigures> runs, RunFigures of) {
    return runs.stream()
        .filter(r -> r.objects() == of.objects() && r.replicas() == of.replicas())
        .findFirst()
        .orElse(null);
  }

  private static RunFigures floorOf(RunFigures run, List<RunFigures> runs) {
    return runs.stream()
        .filter(
            r ->
                r.mode().equals("floor")
                    && r.objects() == run.objects()
                    && r.replicas() == run.replicas())
        .findFirst()
        .orElse(null);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String opt(Double v, int digits) {
    return v == null ? "–" : String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  /** The median restart's time from caches synced to first reconcile, with each one's when more. */
  private static String syncedToFirstReconcile(RunFigures r) {
    if (r.restartToFirstReconcileSeconds() == null) {
      return "–";
    }
    String median = f2(r.restartToFirstReconcileSeconds() - r.restartToReadySeconds());
    List<Double> each = r.restartsSyncedToFirstReconcile();
    if (each.size() < 2) {
      return median;
    }
    return median
        + " (median of "
        + each.size()
        + ": "
        + each.stream().map(Reports::f2).collect(Collectors.joining(", "))
        + ")";
  }
}
